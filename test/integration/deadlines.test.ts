import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/gateway.js';
import { NatsServer } from '../helpers/nats-server.js';
import { type SeparateGateway, startSeparate } from '../helpers/separate.js';

// Deadlines through every hop, as operators run the gateway (`gateway start --separate`, each
// service its own process over a real nats-server): a hung service (SIGSTOP) costs each route at
// most its deadline (docs/architecture.md, "Deadlines"), answered 503 service_unavailable with
// Retry-After, from the first second, before the edge's probes have noticed; neighbours are not
// slowed; once it is continued, everything serves again.

const ADMIN = 'deadlines-admin-token-0123456789';
/** Slack on top of a deadline: the edge's own work, the loopback, a loaded test machine. */
const MARGIN_MS = 750;
/** Route deadlines as services/edge/src/deadlines.ts sets them (video.timeout_ms 4000 below). */
const DEADLINE_MS = { videoRead: 2000, videoContent: 10_000, videoCreate: 4000 + 5000, auth: 2000, hold: 5000 };

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'chat-credential', models: ['m'], record: false });
let nats: NatsServer;
let dir: string;
let gateway: SeparateGateway | undefined;
let edge: string;
let pids: Record<string, number> = {};
const figures: string[] = [];

beforeAll(async () => {
  nats = await NatsServer.start();
  dir = await mkdtemp(join(tmpdir(), 'gateway-deadlines-'));
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
    price: { input_per_mtok: 2, output_per_mtok: 4 }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: CHAT_KEY }]
  - id: v
    mode: video
    video: { resolutions: [720p], default_resolution: 720p, seconds: [4, 4], ratios: ["16:9"], image_input: none }
    price: { per_mtok_by_resolution: { 720p: 0.05 } }
    deployments: [{ provider: demo, model: d }]
video: { timeout_ms: 4000 }
server: { key_cache_ttl_ms: 2000 }
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
  if (figures.length > 0) process.stdout.write(`deadline figures: ${figures.join('; ')}\n`);
}, 60_000);

async function createKey(models: string[]): Promise<string> {
  const response = await fetch(`${edge}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'deadlines', models, budget_usd: 50 }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

interface Outcome {
  name: string;
  ms: number;
  status: number;
  code?: string;
  retryAfter: string | null;
}

/** One request, timed to its whole answer (a stream's too); never waits more than 60 s. */
async function timed(name: string, path: string, key: string, init: RequestInit = {}): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(`${edge}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    // a stream or a clip
  }
  return { name, ms, status: response.status, code, retryAfter: response.headers.get('retry-after') };
}

const chat = (name: string, key: string, stream = false) =>
  timed(name, '/v1/chat/completions', key, {
    method: 'POST',
    body: JSON.stringify({ model: 'g', stream, messages: [{ role: 'user', content: 'How are things?' }] }),
  });

function expectRefusedWithin(outcome: Outcome, deadlineMs: number): void {
  expect(outcome, outcome.name).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: '5' });
  expect(outcome.ms, outcome.name).toBeLessThanOrEqual(deadlineMs + MARGIN_MS);
}

const describeFigures = (outcomes: Outcome[]) => outcomes.map((o) => `${o.name} ${o.status} in ${(o.ms / 1000).toFixed(2)} s`).join(', ');

describe('deadlines through every hop, separate processes', () => {
  it('video service hung: every video route answers 503 with Retry-After within its deadline from the first second; chat is not slowed', async () => {
    const key = await createKey(['g', 'v']);
    const videoPid = pids['video-1'] as number;
    expect(videoPid).toBeGreaterThan(0);
    const newJob = async () => {
      const response = await fetch(`${edge}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'v', prompt: 'a hung neighbour', seconds: 4 }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { id: string }).id;
    };
    const [finished, doomed] = [await newJob(), await newJob()];
    const statusOf = async (id: string) =>
      ((await (await fetch(`${edge}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string })
        .status;
    await eventually(async () => (await statusOf(finished)) === 'completed', 30_000);
    expect((await chat('warm', key)).status).toBe(200);

    process.kill(videoPid, 'SIGSTOP');
    let routes: Outcome[];
    let chats: Outcome[];
    try {
      // All sent at once, right after the stop: the edge's probes (a second apart, two misses)
      // cannot have noticed yet, so each call reaches the hung process and ends by its deadline
      // (or, for the long ones, when the probes find the service not answering and cut it).
      [routes, chats] = await Promise.all([
        Promise.all([
          timed('POST /v1/videos', '/v1/videos', key, { method: 'POST', body: JSON.stringify({ model: 'v', prompt: 'x', seconds: 4 }) }),
          timed('GET /v1/videos/{id}', `/v1/videos/${finished}`, key),
          timed('GET /v1/videos', '/v1/videos', key),
          timed('DELETE /v1/videos/{id}', `/v1/videos/${doomed}`, key, { method: 'DELETE' }),
          timed('GET /v1/videos/{id}/content', `/v1/videos/${finished}/content`, key),
        ]),
        (async () => {
          const out: Outcome[] = [];
          for (let i = 0; i < 20; i += 1) out.push(await chat(`chat ${i}`, key, i % 2 === 1));
          return out;
        })(),
      ]);
    } finally {
      process.kill(videoPid, 'SIGCONT');
    }
    const [create, get, list, remove, content] = routes as [Outcome, Outcome, Outcome, Outcome, Outcome];
    expectRefusedWithin(create, DEADLINE_MS.videoCreate);
    expectRefusedWithin(get, DEADLINE_MS.videoRead);
    expectRefusedWithin(list, DEADLINE_MS.videoRead);
    expectRefusedWithin(remove, DEADLINE_MS.videoRead);
    expectRefusedWithin(content, DEADLINE_MS.videoContent);
    expect(chats.every((o) => o.status === 200)).toBe(true);
    expect(Math.max(...chats.map((o) => o.ms))).toBeLessThan(1000);
    figures.push(
      `video hung: ${describeFigures(routes)}; 20 chat calls all 200, slowest ${Math.max(...chats.map((o) => o.ms)).toFixed(0)} ms`,
    );

    // Continued: every route serves again.
    await eventually(async () => (await timed('get', `/v1/videos/${finished}`, key)).status === 200, 20_000);
    expect((await timed('content', `/v1/videos/${finished}/content`, key)).status).toBe(200);
    expect((await timed('list', '/v1/videos', key)).status).toBe(200);
    expect((await statusOf(await newJob())).length).toBeGreaterThan(0);
  }, 120_000);

  it('accounting hung: a chat call that needs accounting answers 503 within its deadline; one drawing on a lease held in chat may serve', async () => {
    const accountingPid = pids['accounting-1'] as number;
    expect(accountingPid).toBeGreaterThan(0);
    // fresh: never used, so the edge must ask accounting for it (AuthenticateKey, 2 s).
    const fresh = await createKey(['g']);
    // idle: cached at the edge (2 s) by a call that needs no chat, so chat holds no lease for it:
    // its chat calls must take one in accounting (LeaseBudget, within the call's deadline, 5 s at most).
    const idle = await createKey(['g']);
    // busy: cached, and a lease just taken in chat: its next calls are drawn locally and need no
    // accounting at all, so they may legitimately succeed (their spend travels over NATS).
    const busy = await createKey(['g']);
    expect((await timed('warm idle', '/v1/models', idle)).status).toBe(200);
    expect((await chat('warm busy', busy)).status).toBe(200);
    process.kill(accountingPid, 'SIGSTOP');
    let outcomes: Outcome[];
    try {
      outcomes = await Promise.all([
        chat('fresh plain', fresh),
        chat('fresh stream', fresh, true),
        chat('idle plain', idle),
        chat('idle stream', idle, true),
        chat('busy plain', busy),
        chat('busy stream', busy, true),
      ]);
    } finally {
      process.kill(accountingPid, 'SIGCONT');
    }
    const [freshPlain, freshStream, idlePlain, idleStream, busyPlain, busyStream] = outcomes as [
      Outcome,
      Outcome,
      Outcome,
      Outcome,
      Outcome,
      Outcome,
    ];
    expectRefusedWithin(freshPlain, DEADLINE_MS.auth);
    expectRefusedWithin(freshStream, DEADLINE_MS.auth);
    expectRefusedWithin(idlePlain, DEADLINE_MS.hold);
    expectRefusedWithin(idleStream, DEADLINE_MS.hold);
    for (const outcome of [busyPlain, busyStream]) {
      if (outcome.status === 200) expect(outcome.ms).toBeLessThan(1000);
      else expectRefusedWithin(outcome, DEADLINE_MS.hold);
    }
    figures.push(`accounting hung: ${describeFigures(outcomes)}`);

    // Continued: the fresh key is authenticated and served.
    await eventually(async () => (await chat('after', fresh)).status === 200, 20_000);
    expect((await chat('after stream', idle, true)).status).toBe(200);
  }, 120_000);
});
