import { parseConfig, type ChatGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { describe, expect, it } from 'vitest';
import { validateChatRequest } from '../src/domain/request.js';
import { CHAT_LIMITS } from '../src/domain/schema.js';
import { buildUpstreamBody, chatProviders } from '../src/providers/index.js';

// Every documented field typed and bounded by one compiled schema; depth and finiteness by a
// walk no schema states; unknown fields pass to the provider maps, which drop what they do not know.

const config = parseConfig(
  `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 1 }
    deployments: [{ provider: openai, model: m, api_base: "http://x", api_key_env: K }]
`,
  'schema-test',
);
const group = config.groups[0] as ChatGroupConfig;
const messages = [{ role: 'user', content: 'hi' }];

function refusal(body: unknown): { param: string | undefined; message: string } {
  try {
    validateChatRequest(body, group);
  } catch (error) {
    if (error instanceof GatewayError) return { param: error.param, message: error.message };
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(body).slice(0, 200)}`);
}

describe('the chat request schema', () => {
  it('accepts a request using every documented field correctly', () => {
    const request = validateChatRequest(
      {
        model: 'g',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'text', text: 'hi' }], name: 'ann' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', content: 'ok', tool_call_id: 'c1' },
        ],
        temperature: 0.5,
        top_p: 1,
        n: 1,
        stop: ['x', 'y'],
        max_tokens: 50,
        presence_penalty: -1,
        frequency_penalty: 2,
        logit_bias: { '123': -100 },
        logprobs: true,
        top_logprobs: 3,
        user: 'u1',
        seed: 42,
        tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } } }],
        tool_choice: { type: 'function', function: { name: 'f' } },
        parallel_tool_calls: false,
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' } } },
        stream: true,
        stream_options: { include_usage: true },
        some_vendor_extension: { anything: 1 },
      },
      group,
    );
    expect(request.stream).toBe(true);
  });

  it.each([
    [{ top_p: 'a' }, 'top_p'],
    [{ top_p: 1.5 }, 'top_p'],
    [{ n: 0 }, 'n'],
    [{ n: 1.5 }, 'n'],
    [{ stop: 5 }, 'stop'],
    [{ stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    [{ tools: 'x' }, 'tools'],
    [{ tools: [{ type: 'retrieval' }] }, 'tools[0].function'],
    [{ tool_choice: 5 }, 'tool_choice'],
    [{ tool_choice: 'sometimes' }, 'tool_choice'],
    [{ response_format: 'json' }, 'response_format'],
    [{ response_format: { type: 'xml' } }, 'response_format.type'],
    [{ seed: 'x' }, 'seed'],
    [{ seed: 1.5 }, 'seed'],
    [{ user: 5 }, 'user'],
    [{ presence_penalty: 3 }, 'presence_penalty'],
    [{ frequency_penalty: '1' }, 'frequency_penalty'],
    [{ logprobs: 'yes' }, 'logprobs'],
    [{ top_logprobs: 21 }, 'top_logprobs'],
    [{ logit_bias: { '1': 101 } }, 'logit_bias[1]'],
    [{ logit_bias: { abc: 1 } }, 'logit_bias.abc'],
    [{ logit_bias: [] }, 'logit_bias'],
    [{ stream: 'true' }, 'stream'],
    [{ stream_options: { include_usage: 'yes' } }, 'stream_options.include_usage'],
    [{ temperature: true }, 'temperature'],
    [{ max_tokens: '10' }, 'max_tokens'],
    [{ parallel_tool_calls: 1 }, 'parallel_tool_calls'],
    [{ model: 5 }, 'model'],
  ])('refuses %j, naming %s', (fields, param) => {
    expect(refusal({ messages, ...fields }).param).toBe(param);
  });

  it('refuses numbers that are not finite (1e309 parses to Infinity), wherever they are', () => {
    expect(refusal(JSON.parse('{"messages":[{"role":"user","content":"x"}],"top_p":1e309}'))).toMatchObject({ param: 'top_p' });
    expect(refusal(JSON.parse('{"messages":[{"role":"user","content":"x"}],"vendor":{"x":-1e999}}'))).toMatchObject({ param: 'vendor.x' });
    expect(refusal(JSON.parse('{"messages":[{"role":"user","content":"x"}],"vendor":{"a":[1,{"b":[2,1e999]}]}}'))).toMatchObject({
      param: 'vendor.a[1].b[1]',
    });
  });

  it(`refuses nesting deeper than ${CHAT_LIMITS.depth}, however deep (no stack overflow here or when encoding)`, () => {
    const deep = JSON.parse(`{"messages":[{"role":"user","content":"x"}],"response_format":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(refusal(deep).message).toMatch(/more than 64 deep/);
    let nested: Record<string, unknown> = {};
    const root = nested;
    for (let i = 0; i < 70; i += 1) {
      nested.x = {};
      nested = nested.x as Record<string, unknown>;
    }
    expect(refusal({ messages, tools: [{ type: 'function', function: { name: 'f', parameters: root } }] }).message).toMatch(/deep/);
  });

  it('bounds the counts of messages, tools, content parts and logit_bias entries', () => {
    const many = (n: number) => Array.from({ length: n }, () => ({ role: 'user', content: 'x' }));
    expect(refusal({ messages: many(CHAT_LIMITS.messages + 1) }).param).toBe('messages');
    const tool = { type: 'function', function: { name: 'f' } };
    expect(refusal({ messages, tools: Array.from({ length: CHAT_LIMITS.tools + 1 }, () => tool) }).param).toBe('tools');
    const parts = Array.from({ length: CHAT_LIMITS.contentParts + 1 }, () => ({ type: 'text', text: 'x' }));
    expect(refusal({ messages: [{ role: 'user', content: parts }] }).param).toBe('messages[0].content');
    const bias = Object.fromEntries(Array.from({ length: CHAT_LIMITS.logitBias + 1 }, (_, i) => [String(i), 1]));
    expect(refusal({ messages, logit_bias: bias }).param).toBe('logit_bias');
  });

  it("never lets a caller's key find Object.prototype's members in a provider's parameter map", () => {
    const request = validateChatRequest({ messages, hasOwnProperty: 1, toString: 2, valueOf: 3, constructor: 4 }, group);
    const provider = chatProviders.get('openai');
    if (!provider) throw new Error('no openai provider');
    const body = buildUpstreamBody(provider, request, { group, deployment: group.deployments[0]! });
    for (const name of ['hasOwnProperty', 'toString', 'valueOf', 'constructor']) expect(Object.hasOwn(body, name), name).toBe(false);
  });
});
