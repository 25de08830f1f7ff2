import { request } from 'node:http';
import { ChatSimulator, expectedCachedTokens, PromptCache, promptText } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The chat simulator's faults as a client sees them on the wire, without the gateway between.

const sim = new ChatSimulator({ flavor: 'openai', credential: 'k', models: ['m'] });
let url: string;

beforeAll(async () => {
  url = await sim.listen();
});
afterAll(() => sim.close());

interface Answer {
  status?: number;
  retryAfter?: string;
  body: string;
  /** The socket error's code when the exchange failed, e.g. ECONNRESET. */
  errorCode?: string;
  /** Bytes received before the failure. */
  received: number;
}

/** One call over a fresh connection, recording what arrived before any failure. */
function call(body: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve) => {
    let received = 0;
    const parts: Buffer[] = [];
    const req = request(
      `${url}/v1/chat/completions`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: 'Bearer k' } },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          parts.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            retryAfter: res.headers['retry-after'],
            body: Buffer.concat(parts).toString('utf8'),
            received,
          }),
        );
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: res.statusCode, body: Buffer.concat(parts).toString('utf8'), errorCode: error.code, received }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ body: '', errorCode: error.code, received }));
    req.end(JSON.stringify(body));
  });
}

const hello = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };

describe('chat simulator faults', () => {
  it('resets the connection without a byte, and serves the next request as before', async () => {
    sim.fail({ reset: true });
    const reset = await call(hello);
    expect(reset).toEqual({ body: '', errorCode: 'ECONNRESET', received: 0 });
    const next = await call(hello);
    expect(next.status).toBe(200);
  });

  it('resets only after delayMs when both are set', async () => {
    sim.fail({ reset: true, delayMs: 200 });
    const started = performance.now();
    const reset = await call(hello);
    expect(reset.errorCode).toBe('ECONNRESET');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('still answers a status fault with an OpenAI-shaped error and Retry-After', async () => {
    sim.fail({ status: 429, retryAfter: 3 });
    const limited = await call(hello);
    expect(limited.status).toBe(429);
    expect(limited.retryAfter).toBe('3');
    expect(JSON.parse(limited.body)).toEqual({
      error: { message: 'Rate limit reached.', type: 'rate_limit_error', param: null, code: null },
    });
  });
});

// Prompt caching, DeepSeek's way (the definition is in packages/simulators/src/prompt-cache.ts):
// the prompt is the messages' text in order, images a fixed 340 characters each, cut in
// 4-character tokens; block i (64 tokens = 256 characters) is a hit when the whole prefix through
// it was seen before by the same simulator; hits stop at the first miss; a partial last block
// never hits. So one message of 64·4·10 characters, sent again, hits exactly 640 tokens.

type Usage = Record<string, unknown> & { prompt_tokens: number };

/** One call's usage: the plain body's, or the streamed usage chunk's. */
async function usageOf(base: string, messages: unknown[], stream = false): Promise<Usage> {
  const body = { model: 'm', messages, ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) };
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!stream) return (JSON.parse(text) as { usage: Usage }).usage;
  const chunks = text
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { usage?: Usage | null });
  const usage = chunks.find((chunk) => chunk.usage)?.usage;
  if (!usage) throw new Error('no usage chunk');
  return usage;
}

const ten = 'abcd'.repeat(64 * 10); // 2,560 characters: 640 tokens, ten full blocks
const say = (content: string) => [{ role: 'user', content }];

describe.each(['openai', 'deepseek'] as const)('chat simulator prompt cache, %s flavor', (flavor) => {
  const cached = (usage: Usage): number =>
    flavor === 'deepseek'
      ? (usage.prompt_cache_hit_tokens as number)
      : (usage.prompt_tokens_details as { cached_tokens: number }).cached_tokens;
  let caching: ChatSimulator;
  let base: string;
  beforeAll(async () => {
    caching = new ChatSimulator({ flavor, credential: 'k', models: ['m'], visionModels: ['m'] });
    base = await caching.listen();
  });
  afterAll(() => caching.close());

  it('hits every full block of a repeated prompt, plain then streamed, in the vendor shape', async () => {
    const first = await usageOf(base, say(ten));
    const second = await usageOf(base, say(ten));
    const streamed = await usageOf(base, say(ten), true);
    expect([first.prompt_tokens, cached(first), cached(second), cached(streamed)]).toEqual([640, 0, 640, 640]);
    if (flavor === 'deepseek') {
      expect(first).toMatchObject({ prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 640 });
      expect(streamed).toMatchObject({ prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 0 });
      expect(streamed).not.toHaveProperty('prompt_tokens_details');
    } else {
      expect(first).not.toHaveProperty('prompt_cache_hit_tokens');
    }
    expect(caching.totals.cached_tokens).toBe(1280);
  });

  it('hits only the shared leading full blocks: never a partial block, nothing after a miss', async () => {
    const longer = await usageOf(base, say(`${ten}tail`), true); // 641 tokens; the 11th block is partial
    expect([longer.prompt_tokens, cached(longer)]).toEqual([641, 640]);
    const diverges = `${ten.slice(0, 256 * 3 + 100)}${'x'.repeat(2000)}`; // shares 3 full blocks and a bit
    expect(cached(await usageOf(base, say(diverges)))).toBe(192);
    const firstBlockChanged = `Z${ten.slice(1)}`; // blocks 1..9 equal, but not their prefixes
    expect(cached(await usageOf(base, say(firstBlockChanged), true))).toBe(0);
    if (flavor === 'deepseek') {
      const split = await usageOf(base, [...say(ten.slice(0, 1000)), { role: 'assistant', content: ten.slice(1000) }]);
      // Message boundaries and roles are not in the sequence: the same text hits alike.
      expect(split).toMatchObject({ prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 0 });
    }
  });

  it('agrees with expectedCachedTokens, images included', async () => {
    const image = { type: 'image_url', image_url: { url: 'https://example.com/a.png' } };
    const first = [{ role: 'user', content: [{ type: 'text', text: ten.slice(0, 300) }, image] }];
    const second = [{ role: 'user', content: [{ type: 'text', text: ten.slice(0, 300) }, image, { type: 'text', text: ten }] }];
    const other = [
      {
        role: 'user',
        content: [
          { type: 'text', text: ten.slice(0, 300) },
          { ...image, image_url: { url: 'b' } },
        ],
      },
    ];
    const expected = expectedCachedTokens([first], second);
    expect(expected).toBe(128); // 300 + 340 characters: 160 tokens, two full blocks
    expect(expectedCachedTokens([first], other)).toBe(64); // another image: only the block before it
    await usageOf(base, first);
    expect(cached(await usageOf(base, second))).toBe(expected);
    expect(promptText(second).length / 4).toBe((await usageOf(base, second)).prompt_tokens);
  });
});

describe('chat simulator prompt cache, off or full', () => {
  it('reports no hits with promptCache: false', async () => {
    const plain = new ChatSimulator({ flavor: 'deepseek', credential: 'k', models: ['m'], promptCache: false });
    const base = await plain.listen();
    try {
      await usageOf(base, say(ten));
      expect(await usageOf(base, say(ten))).toMatchObject({ prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 640 });
      expect(plain.totals.cached_tokens).toBe(0);
    } finally {
      await plain.close();
    }
  });

  it('forgets the least recently used prefixes beyond its capacity', () => {
    const cache = new PromptCache(10);
    expect(cache.use(say(ten))).toBe(0); // ten prefixes: full
    expect(cache.use(say('q'.repeat(256)))).toBe(0); // evicts the oldest, block 0 of `ten`
    expect(cache.use(say(ten))).toBe(0); // its first block missed, so nothing hits
    expect(cache.use(say(ten))).toBe(640);
  });
});
