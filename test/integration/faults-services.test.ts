import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/gateway.js';
import { NatsServer } from '../helpers/nats-server.js';
import { type SeparateGateway, startSeparate } from '../helpers/separate.js';

// The fault table's internal rows, as operators run the gateway (`gateway start --separate`:
// each service its own process, over a real nats-server): NATS hung and killed, accounting
// killed, the video service hung. For each: what callers see, that chat calls do not slow down
// where the table says so, and that the money is exact once the fault is over.

const ADMIN = 'faults-admin-token-0123456789';
const PRICE = { input: 2, output: 4 };

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'chat-credential', models: ['m'], record: false });
let nats: NatsServer;
let dir: string;
let gateway: SeparateGateway | undefined;
let edge: string;
let pids: Record<string, number> = {};

beforeAll(async () => {
  nats = await NatsServer.start();
  dir = await mkdtemp(join(tmpdir(), 'gateway-faults-'));
  const chatUrl = await chatSim.listen();
  const configPath = join(dir, 'gateway.yaml');
  await writeFile(
    configPath,
    `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: ${PRICE.input}, output_per_mtok: ${PRICE.output} }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: CHAT_KEY }]
  - id: v
    mode: video
    video: { resolutions: [720p], default_resolution: 720p, seconds: [4, 4], ratios: ["16:9"], image_input: none }
    price: { per_mtok_by_resolution: { 720p: 0.05 } }
    deployments: [{ provider: demo, model: d }]
`,
  );
  gateway = await startSeparate({
    env: {
      GATEWAY_CONFIG: configPath,
      GATEWAY_DATA_DIR: join(dir, 'data'),
      NATS_URL: nats.url,
      ADMIN_TOKEN: ADMIN,
      CHAT_KEY: 'chat-credential',
      LOG_LEVEL: 'info',
      METRICS_PORT: '0',
    },
  });
  edge = gateway.edges[0] as string;
  pids = gateway.pids;
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
  await chatSim.close();
  await nats?.destroy();
  await rm(dir, { recursive: true, force: true });
}, 60_000);

async function createKey(models: string[]): Promise<{ id: string; key: string }> {
  const response = await fetch(`${edge}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'faults', models, budget_usd: 50 }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: string };
}

interface Outcome {
  ms: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  /** What a 200 costs, from its usage: nano-USD. */
  nanoUsd: number;
}

async function chatCall(key: string): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(`${edge}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'g', messages: [{ role: 'user', content: 'How are things?' }] }),
  });
  const body = (await response.json()) as { usage?: { prompt_tokens: number; completion_tokens: number }; error?: { code: string } };
  const ms = performance.now() - started;
  const nanoUsd = body.usage ? body.usage.prompt_tokens * PRICE.input * 1000 + body.usage.completion_tokens * PRICE.output * 1000 : 0;
  return { ms, status: response.status, code: body.error?.code, retryAfter: response.headers.get('retry-after'), nanoUsd };
}

async function calls(key: string, n: number): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (let i = 0; i < n; i += 1) out.push(await chatCall(key));
  return out;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const p50 = (outcomes: Outcome[]) => median(outcomes.map((o) => o.ms));

async function spentNanoUsd(id: string): Promise<{ spent: number; reserved: number }> {
  const body = (await (await fetch(`${edge}/admin/v1/keys/${id}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
    spent_usd: number;
    reserved_usd: number;
  };
  return { spent: Math.round(body.spent_usd * 1e9), reserved: Math.round(body.reserved_usd * 1e9) };
}

/** Money exact: what the 200s cost is what the key spent, and nothing stays reserved. */
async function expectBilledExactly(id: string, outcomes: Outcome[]): Promise<number> {
  const started = Date.now();
  const owed = outcomes.reduce((sum, o) => sum + o.nanoUsd, 0);
  let last = { spent: -1, reserved: -1 };
  await eventually(async () => {
    last = await spentNanoUsd(id);
    return last.spent === owed && last.reserved === 0;
  }, 30_000).catch(() => undefined);
  expect(last).toEqual({ spent: owed, reserved: 0 });
  return Date.now() - started;
}

async function readiness(): Promise<{ status: number; body: { status: string; down: string[] } }> {
  const response = await fetch(`${edge}/health/readiness`);
  return { status: response.status, body: (await response.json()) as { status: string; down: string[] } };
}

let healthyP50 = 0;
const figures: string[] = [];

describe('the fault table, internal rows (separate processes over NATS)', () => {
  it('measures healthy chat calls', async () => {
    const { key } = await createKey(['g']);
    await calls(key, 5);
    const healthy = await calls(key, 30);
    expect(healthy.every((o) => o.status === 200)).toBe(true);
    healthyP50 = p50(healthy);
    figures.push(`healthy p50 ${healthyP50.toFixed(2)} ms`);
  }, 60_000);

  it('NATS hung (stopped, not dead): chat calls do not wait on it, the edge stays ready, spend arrives once it is back', async () => {
    const { id, key } = await createKey(['g']);
    nats.pause();
    try {
      const during = await calls(key, 30);
      expect(during.every((o) => o.status === 200)).toBe(true);
      figures.push(`NATS hung p50 ${p50(during).toFixed(2)} ms (slowest ${Math.max(...during.map((o) => o.ms)).toFixed(0)} ms)`);
      // Only the calls in the first half second may wait, once, for the acknowledgement that does not come.
      expect(p50(during)).toBeLessThan(healthyP50 + 5);
      const ready = await readiness();
      expect(ready.status).toBe(200);
      expect(ready.body.down).toContain('bus');
      nats.resume();
      const settledMs = await expectBilledExactly(id, during);
      figures.push(`money exact ${(settledMs / 1000).toFixed(1)} s after NATS resumed`);
    } finally {
      nats.resume();
    }
  }, 90_000);

  it('NATS killed and restarted: chat calls do not wait on it, spend arrives once it is back', async () => {
    const { id, key } = await createKey(['g']);
    await nats.stop();
    const during = await calls(key, 30);
    expect(during.every((o) => o.status === 200)).toBe(true);
    figures.push(`NATS killed p50 ${p50(during).toFixed(2)} ms`);
    expect(p50(during)).toBeLessThan(healthyP50 + 5);
    const ready = await readiness();
    expect(ready.status).toBe(200);
    expect(ready.body.down).toContain('bus');
    await nats.restart();
    const settledMs = await expectBilledExactly(id, during);
    figures.push(`money exact ${(settledMs / 1000).toFixed(1)} s after NATS restarted`);
  }, 90_000);

  it('accounting killed: calls get a 503 with Retry-After until it is back, then serve; no 200 unbilled, nothing billed twice', async () => {
    const { id, key } = await createKey(['g']);
    const accountingPid = pids['accounting-1'];
    expect(accountingPid).toBeGreaterThan(0);
    const before = await calls(key, 3);
    process.kill(accountingPid as number, 'SIGKILL');
    const during: Outcome[] = [];
    const started = Date.now();
    // Until the supervisor's restart serves (a call every 50 ms), then a few more.
    while (Date.now() - started < 30_000) {
      const outcome = await chatCall(key);
      during.push(outcome);
      if (outcome.status === 200 && during.some((o) => o.status !== 200)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const refused = during.filter((o) => o.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) {
      expect(o.status).toBe(503);
      expect(o.code).toBe('service_unavailable');
      expect(Number(o.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    const after = await calls(key, 3);
    expect(after.every((o) => o.status === 200)).toBe(true);
    const settledMs = await expectBilledExactly(id, [...before, ...during, ...after]);
    figures.push(
      `accounting killed: ${during.length - refused.length} calls served from held budget, then ${refused.length} answered 503 (slowest ${Math.max(...refused.map((o) => o.ms)).toFixed(0)} ms) until the restart served, money exact ${(settledMs / 1000).toFixed(1)} s later`,
    );
  }, 90_000);

  it('video service hung: video routes answer 503 at once with Retry-After, chat calls do not slow down, the edge stays ready', async () => {
    const { key } = await createKey(['g', 'v']);
    const videoPid = pids['video-1'] as number;
    expect(videoPid).toBeGreaterThan(0);
    const created = await fetch(`${edge}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'v', prompt: 'a hung neighbour', seconds: 4 }),
    });
    expect(created.status).toBe(200);
    const { id: jobId } = (await created.json()) as { id: string };
    process.kill(videoPid, 'SIGSTOP');
    try {
      // The edge's probes notice within a few seconds; from then on, video calls are refused at once.
      await eventually(async () => (await readiness()).body.down.includes('video'), 15_000);
      await eventually(async () => {
        const answer = await fetch(`${edge}/v1/videos/${jobId}`, {
          headers: { authorization: `Bearer ${key}` },
          signal: AbortSignal.timeout(500),
        }).catch(() => undefined);
        return answer?.headers.get('retry-after') === '5';
      }, 15_000);
      const started = performance.now();
      const refused = await fetch(`${edge}/v1/videos/${jobId}`, { headers: { authorization: `Bearer ${key}` } });
      const refusedMs = performance.now() - started;
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
      expect(refusedMs).toBeLessThan(200);
      const create = await fetch(`${edge}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'v', prompt: 'x', seconds: 4 }),
      });
      expect(create.status).toBe(503);
      const during = await calls(key, 30);
      expect(during.every((o) => o.status === 200)).toBe(true);
      figures.push(`video hung: GET /v1/videos/{id} 503 in ${refusedMs.toFixed(1)} ms; chat p50 ${p50(during).toFixed(2)} ms`);
      expect(p50(during)).toBeLessThan(healthyP50 + 5);
      const ready = await readiness();
      expect(ready.status).toBe(200);
      expect(ready.body.status).toBe('degraded');
    } finally {
      process.kill(videoPid, 'SIGCONT');
    }
    // Back: the video routes serve again.
    await eventually(
      async () => (await fetch(`${edge}/v1/videos/${jobId}`, { headers: { authorization: `Bearer ${key}` } })).status === 200,
      15_000,
    );
    process.stdout.write(`fault table figures: ${figures.join('; ')}\n`);
  }, 90_000);
});
