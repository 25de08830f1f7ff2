import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSimulator } from '@gateway/simulators';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, spawnGateway } from '../helpers/process.js';

// Graceful shutdown of a real `gateway start` process on SIGTERM: readiness turns 503 at once,
// new calls are refused, a stream in flight runs to its end, its spend is kept, and the process
// exits on its own.

const ADMIN = 'shutdown-admin-token-0123456789';
const slow = new ChatSimulator({
  flavor: 'openai',
  credential: 'c',
  models: ['m'],
  chunkDelayMs: 120,
  reply: 'one two three four five six seven eight nine ten',
});
let dir: string;
let env: NodeJS.ProcessEnv;
const started: ChildProcess[] = [];

function startGateway(): Promise<GatewayProcess> {
  return spawnGateway(env, started, 30_000);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-shutdown-'));
  const simUrl = await slow.listen();
  await writeFile(
    join(dir, 'gateway.yaml'),
    `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 3, output_per_mtok: 5 }
    deployments: [{ provider: openai, model: m, api_base: "${simUrl}/v1", api_key_env: K }]
server: { shutdown_grace_seconds: 20 }
`,
  );
  // The deployed defaults' shape: a pre-stop delay, and the grace taken from the longest stream.
  await writeFile(
    join(dir, 'delayed.yaml'),
    `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 3, output_per_mtok: 5 }
    deployments: [{ provider: openai, model: m, api_base: "${simUrl}/v1", api_key_env: K }]
server: { shutdown_delay_seconds: 1, max_stream_seconds: 3 }
`,
  );
  env = {
    ...process.env,
    GATEWAY_CONFIG: join(dir, 'gateway.yaml'),
    GATEWAY_DATA_DIR: join(dir, 'data'),
    ADMIN_TOKEN: ADMIN,
    K: 'c',
    PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  delete env.NATS_URL;
  delete env.MONGODB_URI;
});

afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  await slow.close();
  await rm(dir, { recursive: true, force: true });
});

describe('graceful shutdown', () => {
  it('lets a stream in flight finish across SIGTERM while refusing new calls, and keeps its spend', async () => {
    const first = await startGateway();
    const created = await fetch(`${first.url}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 's', models: ['g'], budget_usd: 1 }),
    });
    const { key } = (await created.json()) as { key: string };
    const client = new OpenAI({ apiKey: key, baseURL: `${first.url}/v1`, maxRetries: 0 });
    const exited = new Promise<number | null>((r) => first.child.once('exit', (code) => r(code)));

    const stream = await client.chat.completions.create({
      model: 'g',
      messages: [{ role: 'user', content: 'Count slowly' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const iterator = stream[Symbol.asyncIterator]();
    const firstChunk = await iterator.next();
    expect(firstChunk.done).toBe(false);

    first.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 150));
    // Probes see the instance leaving; new calls are turned away with a retryable 503.
    const readiness = await fetch(`${first.url}/health/readiness`);
    expect(readiness.status).toBe(503);
    expect(((await readiness.json()) as { checks: Record<string, string> }).checks.edge).toBe('shutting_down');
    const refused = await client.chat.completions
      .create({ model: 'g', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.InternalServerError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('service_unavailable');

    // The stream in flight runs to its end, usage included.
    let text = (firstChunk.value as OpenAI.ChatCompletionChunk).choices[0]?.delta.content ?? '';
    let usage: OpenAI.CompletionUsage | undefined;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const chunk = next.value as OpenAI.ChatCompletionChunk;
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.trim()).toBe('one two three four five six seven eight nine ten');
    expect(usage).toBeDefined();
    const streamEnded = Date.now();
    expect(await exited).toBe(0);
    expect(Date.now() - streamEnded).toBeLessThan(5000);

    // Its spend was applied before the process went away: a fresh start shows it.
    const second = await startGateway();
    try {
      const report = (await (await fetch(`${second.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        budget: { spent_usd: number; reserved_usd: number };
      };
      expect(Math.round(report.budget.spent_usd * 1e9)).toBe(usage!.prompt_tokens * 3000 + usage!.completion_tokens * 5000);
      expect(report.budget.reserved_usd).toBe(0);
    } finally {
      const gone = new Promise((r) => second.child.once('exit', r));
      second.child.kill('SIGTERM');
      await gone;
    }
  }, 60_000);

  it('keeps taking calls through the pre-stop delay with readiness failing, and gives the longest stream its time', async () => {
    const gateway = await spawnGateway(
      { ...env, GATEWAY_CONFIG: join(dir, 'delayed.yaml'), GATEWAY_DATA_DIR: join(dir, 'delayed') },
      started,
      30_000,
    );
    const created = await fetch(`${gateway.url}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'd', models: ['g'], budget_usd: 1 }),
    });
    const { key } = (await created.json()) as { key: string };
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const exited = new Promise<number | null>((r) => gateway.child.once('exit', (code) => r(code)));
    const stream = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Count' }], stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);

    const stopAsked = Date.now();
    gateway.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 150));
    const readiness = await fetch(`${gateway.url}/health/readiness`);
    expect(readiness.status).toBe(503);
    // Within the delay a call that still arrives is served, not refused.
    const served = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'x' }] });
    expect(served.choices[0]?.message.content).toContain('one');
    let chunks = 1;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) chunks += 1;
    expect(chunks).toBeGreaterThan(5);
    expect(await exited).toBe(0);
    // Not before the delay was over (the 1 s of it, then the drain).
    expect(Date.now() - stopAsked).toBeGreaterThanOrEqual(1000);
  }, 60_000);
});
