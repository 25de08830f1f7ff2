import { parseConfig, type ChatGroupConfig, type VideoGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateChatRequest } from '../../services/chat/src/domain/request.js';
import { readMessagesBody, translateMessages } from '../../services/chat/src/messages/request.js';
import { readResponsesRequest, translateRequest } from '../../services/chat/src/responses/request.js';
import { peekChatFields } from '../../services/edge/src/peek.js';
import { validateCreate } from '../../services/video/src/domain/validate.js';
import { videoProviders } from '../../services/video/src/providers/index.js';

// Property-based fuzzing of what reads callers' input: whatever JSON comes in, the chat,
// Responses, Messages and video validators either accept it or refuse it with a GatewayError (a 4xx), never anything
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

/** An Anthropic Messages body: the documented fields, each any JSON or a likely shape. */
const block = fc.record(
  {
    type: fc.oneof(
      json,
      fc.constantFrom(
        'text',
        'image',
        'document',
        'tool_use',
        'tool_result',
        'thinking',
        'redacted_thinking',
        'server_tool_use',
        'web_search_tool_result',
        'search_result',
      ),
    ),
    text: json,
    source: fc.oneof(
      json,
      fc.record(
        {
          type: fc.constantFrom('base64', 'url', 'file', 'text'),
          media_type: fc.oneof(json, fc.constantFrom('image/png', 'image/jpeg', 'image/bmp', 'application/pdf')),
          data: json,
          url: fc.oneof(json, fc.constantFrom('https://example.com/a.png', 'ftp://x', 'http:')),
        },
        { requiredKeys: [] },
      ),
    ),
    id: json,
    name: json,
    input: json,
    tool_use_id: json,
    content: fc.oneof(json, fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text: json }, { requiredKeys: [] }))),
    is_error: json,
    thinking: json,
    signature: json,
    cache_control: json,
  },
  { requiredKeys: [] },
);
/** Blocks the reader takes, so a good share of bodies reach the chat validator. */
const goodBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 20 }) }),
  fc.record({
    type: fc.constant('tool_use'),
    id: fc.constant('toolu_1'),
    name: fc.constantFrom('f', 'g'),
    input: fc.dictionary(key, json, { maxKeys: 3 }),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: fc.constant('toolu_1'),
    content: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.array(fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 10 }) }), { maxLength: 2 }),
    ),
    is_error: fc.boolean(),
  }),
  fc.record({ type: fc.constant('thinking'), thinking: fc.string({ maxLength: 20 }), signature: json }),
  fc.record({ type: fc.constant('image'), source: fc.constant({ type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }) }),
  fc.record({ type: fc.constant('image'), source: fc.constant({ type: 'url', url: 'https://example.com/a.png' }) }),
);
/** Mostly absent (JSON drops undefined), sometimes `arb`: so one wrong field at a time is common. */
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb as fc.Arbitrary<T | undefined> });
const mostly = <T, U>(good: fc.Arbitrary<T>, other: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 5, arbitrary: good as fc.Arbitrary<T | U> }, { weight: 1, arbitrary: other as fc.Arbitrary<T | U> });
const messagesLike = fc.record({
  model: mostly(fc.constant('c'), json),
  max_tokens: mostly(fc.integer({ min: 1, max: 100_000 }), fc.oneof(json, fc.integer({ min: -5, max: 0 }))),
  messages: mostly(
    fc.array(
      fc.record(
        {
          role: mostly(fc.constantFrom('user', 'assistant', 'system'), fc.oneof(json, fc.constant('tool'))),
          content: mostly(fc.oneof(fc.string({ maxLength: 20 }), fc.array(mostly(goodBlock, block), { maxLength: 4 })), json),
        },
        { requiredKeys: ['role'] },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    json,
  ),
  system: rarely(fc.oneof(json, fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text: json }, { requiredKeys: [] })))),
  tools: rarely(
    fc.oneof(
      json,
      fc.array(
        fc.record(
          {
            type: fc.oneof(json, fc.constantFrom('custom', 'web_search_20250305', 'bash_20250124')),
            name: fc.oneof(json, fc.constantFrom('f', 'g')),
            input_schema: fc.oneof(json, fc.constant({ type: 'object', properties: {} })),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    ),
  ),
  tool_choice: rarely(
    fc.oneof(
      json,
      fc.record(
        { type: fc.constantFrom('auto', 'any', 'tool', 'none'), name: json, disable_parallel_tool_use: json },
        { requiredKeys: [] },
      ),
    ),
  ),
  thinking: rarely(
    fc.oneof(
      json,
      fc.record(
        { type: fc.constantFrom('enabled', 'disabled', 'adaptive'), budget_tokens: fc.oneof(json, fc.integer()) },
        { requiredKeys: [] },
      ),
    ),
  ),
  output_config: rarely(
    fc.oneof(json, fc.record({ effort: fc.oneof(json, fc.constantFrom('low', 'medium', 'high', 'max')) }, { requiredKeys: [] })),
  ),
  temperature: rarely(fc.oneof(json, fc.double({ min: -1, max: 2 }))),
  top_p: rarely(fc.oneof(json, fc.double({ min: -1, max: 2 }))),
  top_k: rarely(fc.oneof(json, fc.integer({ min: -2, max: 100 }))),
  stop_sequences: rarely(fc.oneof(json, fc.array(fc.string({ maxLength: 5 }), { maxLength: 6 }))),
  metadata: rarely(fc.oneof(json, fc.record({ user_id: json }, { requiredKeys: [] }))),
  stream: rarely(fc.oneof(json, fc.boolean())),
});

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

  it('the Messages reader and translator accept or refuse with a 4xx, never anything else, for a call and for count_tokens', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(json, messagesLike, messagesLike), fc.boolean(), fc.boolean(), (body, signed, counting) => {
        onlyGatewayErrors(() => {
          const read = readMessagesBody(JSON.parse(JSON.stringify(body) ?? 'null'));
          // Any thinking block trusted, or none: both paths of the assistant turn.
          const translated = translateMessages(read, chat, () => signed, counting);
          validateChatRequest(translated.chatBody, chat);
          accepted += 1;
        });
      }),
      { numRuns: 3000 },
    );
    // Not a vacuous property: some of the bodies made it through to a valid chat request.
    expect(accepted).toBeGreaterThan(20);
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
