import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';
import { NO_MONGODB, realMongo } from '../helpers/mongodb.js';
import { NatsServer } from '../helpers/nats-server.js';

// The gateway on its production adapters: MongoDB (balances held with atomic updates on the key
// documents, the ledger, task records with their TTL index) and NATS JetStream. Runs when
// MONGODB_URI is set or a Docker engine is reachable (testcontainers); skipped otherwise.

const mongo = await realMongo(`gateway_it_${process.pid}_${Date.now()}`);
const PRICE = { input: 2, output: 4 };
const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'], record: false });
const minimax = new VideoSimulator({ protocol: 'minimax', credential: 'mm', models: ['MiniMax-H3'], queuedPolls: 0, runningPolls: 1 });
let nats: NatsServer;
let gateway: TestGateway;
let config: ReturnType<typeof parseConfig>;

describe.runIf(mongo !== undefined)(`the gateway on MongoDB and NATS (${mongo?.source ?? NO_MONGODB})`, () => {
  beforeAll(async () => {
    nats = await NatsServer.start();
    const [chatUrl, mmUrl] = [await chatSim.listen(), await minimax.listen()];
    config = parseConfig(
      `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 20
    price: { input_per_mtok: ${PRICE.input * 1000}, output_per_mtok: ${PRICE.output * 1000} }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: C }]
  - id: clip
    mode: video
    video: { resolutions: [768P], default_resolution: 768P, seconds: [6, 10], ratios: ["16:9"], image_input: first_frame }
    price: { per_second_by_resolution: { 768P: 0.08 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${mmUrl}", api_key_env: MM }]
video: { poll_interval_ms: 100 }
server: { key_cache_ttl_ms: 0 }
`,
      'mongodb-it',
    );
    gateway = await startTestGateway({ config, env: { MONGODB_URI: mongo!.uri, NATS_URL: nats.url, C: 'c', MM: 'mm' } });
  }, 120_000);

  afterAll(async () => {
    if (gateway) await stopTestGateway(gateway);
    await Promise.all([chatSim.close(), minimax.close()]);
    await nats?.destroy();
    await mongo?.stop();
  }, 60_000);

  const usage = async (key: string) =>
    (
      (await (await gateway.call('/v1/usage', key)).json()) as {
        budget: { spent_usd: number; reserved_usd: number; remaining_usd: number };
      }
    ).budget;

  it('meters chat calls exactly, plain and streamed', async () => {
    expect(gateway.store.kind).toBe('mongodb');
    const { key } = await gateway.createKey({ models: ['g'], budget_usd: 10 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    let expected = 0;
    for (let i = 0; i < 5; i += 1) {
      const completion = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: `Hello ${i}` }] });
      expected += completion.usage!.prompt_tokens * PRICE.input * 1e6 + completion.usage!.completion_tokens * PRICE.output * 1e6;
    }
    const stream = await client.chat.completions.create({
      model: 'g',
      messages: [{ role: 'user', content: 'Stream' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    for await (const chunk of stream)
      if (chunk.usage) expected += chunk.usage.prompt_tokens * PRICE.input * 1e6 + chunk.usage.completion_tokens * PRICE.output * 1e6;
    await eventually(async () => Math.round((await usage(key)).spent_usd * 1e9) === expected, 10_000);
    await eventually(async () => (await usage(key)).reserved_usd === 0, 10_000);
  });

  it('never lets 50 racing calls spend past the budget (holds are atomic updates of the key document)', async () => {
    const { key } = await gateway.createKey({ models: ['g'], budget_usd: 1 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Count to three' }], max_tokens: 20 }),
      ),
    );
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(results.some((r) => r.status === 'rejected')).toBe(true);
    await eventually(async () => (await usage(key)).reserved_usd === 0, 10_000);
    const after = await usage(key);
    expect(after.spent_usd).toBeLessThanOrEqual(1);
    expect(Math.round((after.spent_usd + after.remaining_usd) * 1e9)).toBe(1e9);
  });

  it('runs a video job to completion, billed once, its record expiring by a TTL index', async () => {
    const { key } = await gateway.createKey({ models: ['clip'], budget_usd: 5 });
    const created = await gateway.call('/v1/videos', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'clip', prompt: 'x', seconds: 6 }),
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    await eventually(
      async () => ((await (await gateway.call(`/v1/videos/${id}`, key)).json()) as { status: string }).status === 'completed',
      15_000,
    );
    await eventually(async () => Math.round((await usage(key)).spent_usd * 1e9) === 480_000_000, 10_000);
    const { MongoClient } = await import('mongodb');
    const client = await MongoClient.connect(mongo!.uri);
    try {
      const collections = await client.db().listCollections().toArray();
      const ttl: number[] = [];
      for (const { name } of collections) {
        for (const index of await client.db().collection(name).indexes())
          if (typeof index.expireAfterSeconds === 'number') ttl.push(index.expireAfterSeconds);
      }
      expect(ttl).toContain(7 * 24 * 3600);
    } finally {
      await client.close();
    }
  });

  it('keeps keys and spend across a restart', async () => {
    const { key } = await gateway.createKey({ models: ['g'], budget_usd: 2 });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Hi' }] });
    await eventually(async () => (await usage(key)).spent_usd > 0, 10_000);
    const before = await usage(key);
    await gateway.close();
    gateway = await startTestGateway({ config, env: { MONGODB_URI: mongo!.uri, NATS_URL: nats.url, C: 'c', MM: 'mm' } });
    await eventually(async () => (await usage(key)).reserved_usd === 0, 10_000);
    expect((await usage(key)).spent_usd).toBe(before.spent_usd);
  });
});
