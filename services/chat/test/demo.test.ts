import type { DeploymentConfig } from '@gateway/config';
import { countTextTokens } from '@gateway/tokenizer';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/domain/request.js';
import { PrefixCache } from '../src/providers/demo/cache.js';
import { demoAnswers } from '../src/providers/demo/index.js';

// The demo model's usage: real o200k_base tokens, and DeepSeek-style prefix caching over them
// (64-token blocks; a block is cached when the prompt up to its end was seen before; the demo
// knows seen prefixes at message boundaries, see providers/demo/cache.ts), reported in
// OpenAI's shape, prompt_tokens_details.cached_tokens, plain and streamed.

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

const call = (body: JsonObject) => ({
  deployment: {} as DeploymentConfig,
  path: '/chat/completions',
  body,
  timeoutMs: 10_000,
  signal: new AbortController().signal,
});

async function complete(body: JsonObject): Promise<Usage> {
  return ((await demoAnswers.complete(call(body))) as { usage: Usage }).usage;
}

async function streamed(body: JsonObject): Promise<Usage> {
  const stream = await demoAnswers.stream(call({ ...body, stream: true, stream_options: { include_usage: true } }));
  let usage: Usage | undefined;
  for await (const batch of stream.batches) {
    for (const data of batch) usage = (JSON.parse(data) as { usage?: Usage }).usage ?? usage;
  }
  if (!usage) throw new Error('no usage chunk');
  return usage;
}

/** A long text unique to `seed`, so tests do not share cached prefixes. */
const long = (seed: string) => Array.from({ length: 300 }, (_, i) => `${seed} sentence ${i} about caching.`).join(' ');
const ask = (content: string, model = 'demo') => ({ model, messages: [{ role: 'user', content }] });
const blocks = (tokens: number) => Math.floor(tokens / 64) * 64;

describe('the demo model', () => {
  it('counts prompt tokens with the real tokenizer, four more a message', async () => {
    const usage = await complete(ask('Hello gateway'));
    expect(usage.prompt_tokens).toBe(4 + countTextTokens('Hello gateway'));
    expect(usage.prompt_tokens_details.cached_tokens).toBe(0);
  });

  it('caches a repeated long prompt: none the first time, every full block after, plain and streamed', async () => {
    const body = ask(long('repeat'));
    const first = await complete(body);
    const second = await complete(body);
    const third = await streamed(body);
    expect(first.prompt_tokens).toBeGreaterThan(1000);
    expect(first.prompt_tokens_details.cached_tokens).toBe(0);
    expect(second.prompt_tokens_details.cached_tokens).toBeGreaterThan(0);
    expect(second.prompt_tokens_details.cached_tokens % 64).toBe(0);
    expect(second.prompt_tokens_details.cached_tokens).toBe(blocks(first.prompt_tokens));
    expect(third).toMatchObject({ prompt_tokens: first.prompt_tokens, prompt_tokens_details: second.prompt_tokens_details });
  });

  it('caches a conversation up to the turns seen before, never a tiny prompt', async () => {
    const system = { role: 'system', content: long('system') };
    const before = await streamed({ model: 'demo', messages: [system, { role: 'user', content: 'First question' }] });
    const grown = await complete({
      model: 'demo',
      messages: [
        system,
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'An answer' },
        { role: 'user', content: 'Next' },
      ],
    });
    expect(before.prompt_tokens_details.cached_tokens).toBe(0);
    expect(grown.prompt_tokens_details.cached_tokens).toBe(blocks(before.prompt_tokens));
    // Another model is another deployment: nothing shared.
    expect((await complete({ model: 'other', messages: [system] })).prompt_tokens_details.cached_tokens).toBe(0);
    await complete(ask('Tiny'));
    expect((await complete(ask('Tiny'))).prompt_tokens_details.cached_tokens).toBe(0);
  });

  it('stops within max_tokens as counted', async () => {
    const usage = await complete({ ...ask('Short please'), max_tokens: 5 });
    expect(usage.completion_tokens).toBeLessThanOrEqual(5);
    expect(usage.completion_tokens).toBeGreaterThan(0);
  });
});

describe('the demo prefix cache', () => {
  it('forgets the least recently used prefixes beyond its capacity', () => {
    const cache = new PrefixCache(3);
    const messages = ['a', 'b', 'c'];
    const tokens = [64, 64, 64];
    expect(cache.cachedTokens('m', messages, tokens)).toBe(0); // three prefixes: full
    expect(cache.cachedTokens('m', ['z'], [64])).toBe(0); // forgets the oldest, ['a']
    expect(cache.cachedTokens('m', messages, tokens)).toBe(0); // ['a'] misses, ending the run
    expect(cache.cachedTokens('m', messages, tokens)).toBe(192);
    expect(cache.cachedTokens('m', ['a', 'b'], [64, 30])).toBe(64); // the seen 94 tokens hold one full block
  });
});
