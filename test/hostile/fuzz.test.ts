import { parseConfig, type ChatGroupConfig, type VideoGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateChatRequest } from '../../services/chat/src/domain/request.js';
import { readResponsesRequest, translateRequest } from '../../services/chat/src/responses/request.js';
import { peekChatFields } from '../../services/edge/src/peek.js';
import { validateCreate } from '../../services/video/src/domain/validate.js';
import { videoProviders } from '../../services/video/src/providers/index.js';

// Property-based fuzzing of what reads callers' input: whatever JSON comes in, the chat and
// video validators either accept it or refuse it with a GatewayError (a 4xx), never anything
// else (which would be a 5xx); the edge's top-level peek never disagrees with JSON.parse.

const config = parseConfig(
  `
groups:
  - id: c
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    image_input: true
    reasoning: { default_effort: high }
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: m, api_base: "http://x", api_key_env: K }]
  - id: v
    mode: video
    video: { resolutions: [720p], default_resolution: 720p, seconds: [4, 4], ratios: ["16:9", "9:16"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 720p: 1 } }
    deployments: [{ provider: demo, model: d }]
`,
  'fuzz',
);
const chat = config.groups[0] as ChatGroupConfig;
const video = config.groups[1] as VideoGroupConfig;
const demo = videoProviders.get('demo');
if (!demo) throw new Error('no demo video provider');

/** Any JSON value, prototype-named keys and the documented field names included. */
const key = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'),
  fc.constantFrom(
    'model',
    'messages',
    'role',
    'content',
    'type',
    'text',
    'image_url',
    'url',
    'stream',
    'stream_options',
    'tools',
    'function',
    'tool_choice',
    'response_format',
    'logit_bias',
    'stop',
    'n',
    'top_p',
    'temperature',
    'max_tokens',
    'reasoning_effort',
  ),
);
const { value: json } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string({ maxLength: 20 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
}));
const chatLike = fc.record(
  {
    model: json,
    messages: fc.oneof(
      json,
      fc.array(
        fc.record({ role: fc.oneof(json, fc.constantFrom('user', 'system', 'assistant', 'tool')), content: json }, { requiredKeys: [] }),
        { maxLength: 4 },
      ),
    ),
    stream: json,
    tools: json,
    response_format: json,
    logit_bias: json,
    reasoning_effort: json,
  },
  { requiredKeys: [] },
);

/** A Responses body: the documented fields, each any JSON or a likely shape. */
const item = fc.record(
  {
    type: fc.oneof(json, fc.constantFrom('message', 'function_call', 'function_call_output', 'reasoning', 'web_search_call')),
    role: fc.oneof(json, fc.constantFrom('user', 'assistant', 'system', 'developer')),
    content: fc.oneof(
      json,
      fc.array(fc.record({ type: fc.constantFrom('input_text', 'input_image', 'output_text'), text: json, image_url: json })),
    ),
    call_id: json,
    name: json,
    arguments: json,
    output: json,
    summary: json,
    encrypted_content: json,
  },
  { requiredKeys: [] },
);
const responsesLike = fc.record(
  {
    model: json,
    input: fc.oneof(json, fc.array(item, { maxLength: 4 })),
    instructions: json,
    tools: fc.oneof(
      json,
      fc.array(fc.record({ type: fc.constantFrom('function', 'namespace', 'web_search'), name: json, tools: json, parameters: json })),
    ),
    tool_choice: json,
    text: json,
    reasoning: json,
    include: json,
    store: json,
    metadata: json,
    max_output_tokens: json,
  },
  { requiredKeys: [] },
);

function onlyGatewayErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).spec.http).toBeLessThan(500);
  }
}

describe('fuzzing the validators with random JSON', () => {
  it('the chat validator accepts or refuses with a 4xx, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(json, chatLike), (body) => {
        // Through JSON as a caller's body is: no undefined, no -0 distinctions, non-finite as null.
        onlyGatewayErrors(() => validateChatRequest(JSON.parse(JSON.stringify(body) ?? 'null'), chat));
      }),
      { numRuns: 3000 },
    );
  });

  it('the Responses reader and translator accept or refuse with a 4xx, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(json, responsesLike), fc.boolean(), (body, storageOff) => {
        onlyGatewayErrors(() => {
          const asked = readResponsesRequest(JSON.parse(JSON.stringify(body) ?? 'null'), storageOff);
          const translated = translateRequest(asked, chat, [], () => undefined);
          return validateChatRequest(translated.chatBody, chat);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('the video validator accepts or refuses with a 4xx, never anything else', () => {
    const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('4', '720p', '16:9', '1280x720', 'https://example.com/a.png', ''));
    fc.assert(
      fc.property(fc.record({ prompt: text, seconds: text, resolution: text, ratio: text, inputReference: text, size: text }), (input) => {
        onlyGatewayErrors(() => validateCreate(input, video, demo));
      }),
      { numRuns: 3000 },
    );
  });

  it("the edge's peek at model and stream never disagrees with JSON.parse", () => {
    fc.assert(
      fc.property(fc.oneof(json, chatLike), fc.constantFrom('', ' ', '\n\t '), (body, space) => {
        const text = JSON.stringify(body) ?? 'null';
        const raw = Buffer.from(`${space}${text}${space}`);
        const peeked = peekChatFields(raw);
        if (peeked === undefined) return;
        const parsed = JSON.parse(raw.toString()) as { model?: unknown; stream?: unknown };
        expect(peeked.model).toBe(parsed.model);
        expect(peeked.stream).toBe(parsed.stream === true);
      }),
      { numRuns: 3000 },
    );
  });

  it('random bytes as a chat body: the peek answers or declines, never throws', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(() => peekChatFields(Buffer.from(bytes))).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });
});
