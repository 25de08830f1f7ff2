import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Budgets that hold: every call holds its worst-case price in accounting before it goes
// upstream, so racing calls cannot spend past the budget; rate limits per key.

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'], record: false });
const slowSim = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'], record: false, chunkDelayMs: 100 });
const ark = new VideoSimulator({ protocol: 'ark', credential: 'a', models: ['s'], queuedPolls: 0, runningPolls: 1 });
let gateway: TestGateway;

beforeAll(async () => {
  const [chatUrl, slowUrl, arkUrl] = [await chatSim.listen(), await slowSim.listen(), await ark.listen()];
  gateway = await startTestGateway({
    env: { C: 'c', A: 'a' },
    config: parseConfig(
      `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1000, output_per_mtok: 1000 }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: C }]
  - id: slow
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1000, output_per_mtok: 1000 }
    deployments: [{ provider: openai, model: m, api_base: "${slowUrl}/v1", api_key_env: C }]
  - id: beta-dance
    mode: video
    video: { resolutions: [480p], default_resolution: 480p, seconds: [4, 30], ratios: ["16:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70 } }
    deployments: [{ provider: ark, model: s, api_base: "${arkUrl}/api/v3", api_key_env: A }]
video: { poll_interval_ms: 50 }
server: { key_cache_ttl_ms: 0 }
`,
      'budget-test',
    ),
  });
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await Promise.all([chatSim.close(), slowSim.close(), ark.close()]);
});

async function usage(key: string) {
  return (await (await gateway.call('/v1/usage', key)).json()) as {
    budget: { limit_usd: number; spent_usd: number; reserved_usd: number; remaining_usd: number };
  };
}

describe('budgets', () => {
  it('hold at the boundary when 50 calls race: recorded spend never passes the budget', async () => {
    // Each call holds at most (prompt estimate + 20 completion tokens) × 1,000 USD/Mtok ≈ 0.03 USD;
    // a budget of 0.5 USD fits about a dozen of them at once.
    const { key } = await gateway.createKey({ models: ['g'], budget_usd: 0.5 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Count to three' }], max_tokens: 20 }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(OpenAI.UnprocessableEntityError);
      expect(((r as PromiseRejectedResult).reason as InstanceType<typeof OpenAI.APIError>).code).toBe('budget_exceeded');
    }
    await eventually(async () => (await usage(key)).budget.reserved_usd === 0, 10_000);
    const after = (await usage(key)).budget;
    expect(after.spent_usd).toBeLessThanOrEqual(0.5);
    expect(after.spent_usd).toBeGreaterThan(0);
    expect(Math.round((after.spent_usd + after.remaining_usd) * 1e9)).toBe(0.5e9);
  });

  it("show a call's hold as reserved while it runs, and settle it to the real cost", async () => {
    const { key } = await gateway.createKey({ models: ['slow'], budget_usd: 5 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'slow',
      messages: [{ role: 'user', content: 'Stream slowly' }],
      stream: true,
    });
    const during = (await usage(key)).budget;
    expect(during.reserved_usd).toBeGreaterThan(0);
    for await (const _chunk of stream) {
      /* drain */
    }
    await eventually(async () => (await usage(key)).budget.reserved_usd === 0, 10_000);
    const after = (await usage(key)).budget;
    expect(after.spent_usd).toBeGreaterThan(0);
    expect(after.spent_usd).toBeLessThan(during.reserved_usd);
  });

  it("give a failed call's hold back", async () => {
    const { key } = await gateway.createKey({ models: ['g'], budget_usd: 1 });
    chatSim.fail({ status: 400 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    // The chat service's lease on the key goes back once it expires (a couple of seconds).
    await eventually(async () => (await usage(key)).budget.reserved_usd === 0, 10_000);
    expect((await usage(key)).budget).toMatchObject({ spent_usd: 0, reserved_usd: 0, remaining_usd: 1 });
  });

  it("hold a video job's price and give it back when the job fails", async () => {
    const { key } = await gateway.createKey({ models: ['beta-dance'], budget_usd: 10 });
    ark.fail({ moderation: true });
    const response = await gateway.call('/v1/videos', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'beta-dance', prompt: 'x', seconds: 30 }),
    });
    const job = (await response.json()) as { id: string };
    const held = (await usage(key)).budget.reserved_usd;
    // 30 s at 480p 16:9 by the formula: 854 × 480 × 721 / 1024 tokens × 10.70 USD per million.
    expect(held).toBeCloseTo(Math.ceil((854 * 480 * 721) / 1024) * 10.7e-6, 6);
    await eventually(
      async () => ((await (await gateway.call(`/v1/videos/${job.id}`, key)).json()) as { status: string }).status === 'failed',
      10_000,
    );
    await eventually(async () => (await usage(key)).budget.reserved_usd === 0, 10_000);
    expect((await usage(key)).budget).toMatchObject({ spent_usd: 0, remaining_usd: 10 });
  });

  it('refuse a video job that does not fit, creating nothing upstream', async () => {
    const { key } = await gateway.createKey({ models: ['beta-dance'], budget_usd: 1 });
    const before = ark.createdTasks;
    const response = await gateway.call('/v1/videos', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'beta-dance', prompt: 'x', seconds: 30 }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('budget_exceeded');
    expect(ark.createdTasks).toBe(before);
  });
});

describe('rate limits', () => {
  it("answer 429 with Retry-After past the key's requests per minute", async () => {
    const { key } = await gateway.createKey({ models: ['g'], budget_usd: 10, rpm: 3 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    for (let i = 0; i < 3; i += 1) await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'x' }] });
    const error = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const retryAfter = Number((error as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('rate_limit_exceeded');
  });

  it("answer 429 once the tokens used this minute reach the key's tpm", async () => {
    const { key } = await gateway.createKey({ models: ['g'], budget_usd: 10, tpm: 20 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    // Each call here uses 4 prompt + 9 completion tokens; the second one reaches 26 >= 20.
    for (let i = 0; i < 2; i += 1)
      await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Count to three' }] });
    await eventually(
      async () =>
        ((await (await gateway.call('/v1/usage', key)).json()) as { by_model: { requests: number }[] }).by_model[0]?.requests === 2,
    );
    const error = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as Error).message).toContain('tokens per minute');
    const usage = (await (await gateway.call('/v1/usage', key)).json()) as { rate_limits: unknown };
    expect(usage.rate_limits).toEqual({ rpm: null, tpm: 20 });
  });
});
