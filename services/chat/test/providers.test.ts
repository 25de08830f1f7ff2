import { parseConfig, type ChatGroupConfig } from '@gateway/config';
import { describe, expect, it } from 'vitest';
import { validateChatRequest } from '../src/domain/request.js';
import { priceUsage } from '../src/domain/metering.js';
import { readUsage } from '../src/domain/usage.js';
import { buildUpstreamBody, chatProviders } from '../src/providers/index.js';
import { thinkingFor } from '../src/providers/deepseek/index.js';

const config = parseConfig(
  `
groups:
  - id: r
    mode: chat
    max_input_tokens: 100
    max_output_tokens: 100
    reasoning: { default_effort: max }
    price: { input_per_mtok: 0.14, output_per_mtok: 0.28 }
    deployments: [{ provider: deepseek, model: ds-model, api_base: "http://x", api_key_env: K }]
`,
  'providers-test',
);
const group = config.groups[0] as ChatGroupConfig;
const context = { group, deployment: group.deployments[0]! };

describe('provider parameter maps', () => {
  it('keep what the upstream understands, rename what it names differently, drop the rest', () => {
    const request = validateChatRequest(
      {
        model: 'alias',
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 1,
        max_completion_tokens: 9,
        user: 'u',
        foo: 1,
        seed: 2,
      },
      group,
    );
    const body = buildUpstreamBody(chatProviders.get('deepseek')!, request, context);
    expect(body).toEqual({
      model: 'ds-model',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 1,
      max_tokens: 9,
      thinking: { type: 'enabled' },
      reasoning_effort: 'max',
    });
    const openaiBody = buildUpstreamBody(chatProviders.get('openai')!, request, context);
    expect(openaiBody).toEqual({
      model: 'ds-model',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 1,
      max_completion_tokens: 9,
      user: 'u',
      seed: 2,
    });
  });

  it('always ask for usage on streams', () => {
    const request = validateChatRequest({ messages: [{ role: 'user', content: 'hi' }], stream: true }, group);
    expect(buildUpstreamBody(chatProviders.get('openai')!, request, context)).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(request.includeUsage).toBe(false);
  });

  it("map the gateway's reasoning effort to DeepSeek's", () => {
    expect(thinkingFor('none')).toEqual({ thinking: { type: 'disabled' } });
    expect(thinkingFor('low')).toEqual({ thinking: { type: 'enabled' }, reasoning_effort: 'high' });
    expect(thinkingFor('high')).toEqual({ thinking: { type: 'enabled' }, reasoning_effort: 'high' });
    expect(thinkingFor('max')).toEqual({ thinking: { type: 'enabled' }, reasoning_effort: 'max' });
  });
});

describe('metering', () => {
  it('prices prompt and completion tokens in whole nano-dollars', () => {
    const usage = readUsage({ prompt_tokens: 1000, completion_tokens: 500, completion_tokens_details: { reasoning_tokens: 200 } });
    expect(usage).toEqual({ prompt_tokens: 1000, cached_tokens: 0, completion_tokens: 500, reasoning_tokens: 200 });
    expect(priceUsage(usage!, group, Date.now(), false).cost_nano_usd).toBe(1000 * 140 + 500 * 280);
    expect(readUsage(null)).toBeUndefined();
  });

  it('read cached prompt tokens, clamped to the prompt, and price them at the cache-hit price', () => {
    const usage = readUsage({ prompt_tokens: 1000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 640 } });
    expect(usage).toMatchObject({ prompt_tokens: 1000, cached_tokens: 640 });
    expect(readUsage({ prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 64 } })?.cached_tokens).toBe(10);
    // No cache-hit price configured: cached tokens cost the input price, and save nothing.
    expect(priceUsage(usage!, group, Date.now(), false)).toMatchObject({ cost_nano_usd: 1000 * 140 + 10 * 280, cache_saved_nano_usd: 0 });
  });

  it("move DeepSeek's cache counts into OpenAI's shape", () => {
    const body: Record<string, unknown> = {
      usage: { prompt_tokens: 100, completion_tokens: 1, prompt_cache_hit_tokens: 64, prompt_cache_miss_tokens: 36 },
    };
    chatProviders.get('deepseek')!.response!(body);
    expect(JSON.parse(JSON.stringify(body.usage))).toEqual({
      prompt_tokens: 100,
      completion_tokens: 1,
      prompt_tokens_details: { cached_tokens: 64 },
    });
  });
});
