import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '@gateway/config';
import { ChatSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';
import { NatsServer } from '../helpers/nats-server.js';
import { type SeparateGateway, startSeparate } from '../helpers/separate.js';

// Key and team changes reach a busy key's calls at once, in one process and in separate
// processes (two edges, two chat replicas over NATS): chat's budget leases are dropped on the
// key-change broadcast, so no call sent 50 ms after the admin change's answer is served under
// the old terms. Each case prints the worst lag it saw (how long after the answer an old-terms
// call was still sent; 0 when none was).

/** What a call may lag the change by: the broadcast's way to every process. */
const GRACE_MS = 50;
const EVERY_MS = 150;

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'chat-credential', models: ['m'], record: false });
let chatUrl: string;
beforeAll(async () => {
  chatUrl = await chatSim.listen();
});

function configText(keyCacheTtlMs: number): string {
  const group = (id: string) => `
  - id: ${id}
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 2, output_per_mtok: 4 }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: CHAT_KEY }]`;
  return `
groups:${group('g')}${group('h')}
server: { key_cache_ttl_ms: ${keyCacheTtlMs} }
`;
}

interface Harness {
  /** Edge URLs; calls alternate between them. */
  edges: string[];
  admin(method: string, path: string, body?: unknown): Promise<Response>;
}

interface Sent {
  sentAt: number;
  status: number;
  id?: string;
  code?: string;
}

async function chatCall(edge: string, secret: string, model: string): Promise<Sent> {
  const sentAt = performance.now();
  const response = await fetch(`${edge}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 }),
  });
  const body = (await response.json()) as { id?: string; error?: { code?: string } };
  return { sentAt, status: response.status, ...(body.id ? { id: body.id } : {}), ...(body.error?.code ? { code: body.error.code } : {}) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Extra calls this long after the change answered: the steady 150 ms beat alone measures lag coarsely. */
const PROBES_MS = [0, 2, 5, 10, 20, 35];

/**
 * A busy key: a call every 150 ms for a second, then `change` (an admin PATCH), then 1.5 s more.
 * Returns every call and when the change answered.
 */
async function aroundChange(
  h: Harness,
  secret: string,
  model: string,
  change: () => Promise<Response>,
): Promise<{ calls: Sent[]; answeredAt: number }> {
  const calls: Promise<Sent>[] = [];
  let n = 0;
  const timer = setInterval(() => {
    calls.push(chatCall(h.edges[n % h.edges.length] as string, secret, model));
    n += 1;
  }, EVERY_MS);
  try {
    await sleep(1000);
    const response = await change();
    const answeredAt = performance.now();
    for (const [i, at] of PROBES_MS.entries()) {
      setTimeout(() => calls.push(chatCall(h.edges[i % h.edges.length] as string, secret, model)), at);
    }
    expect(response.status, await response.text()).toBe(200);
    await sleep(1500);
    clearInterval(timer);
    return { calls: await Promise.all(calls), answeredAt };
  } finally {
    clearInterval(timer);
  }
}

/** Checks no old-terms call was sent GRACE_MS or more after the answer; returns the worst lag (ms). */
function worstLag(label: string, calls: Sent[], answeredAt: number, oldTerms: (call: Sent) => boolean): number {
  // The busy key was served before the change: it held leases.
  expect(calls.filter((c) => c.sentAt < answeredAt && c.status === 200).length).toBeGreaterThan(3);
  const late = calls.filter((c) => c.sentAt >= answeredAt + GRACE_MS);
  expect(late.length).toBeGreaterThan(5);
  expect(late.filter(oldTerms).map((c) => Math.round(c.sentAt - answeredAt))).toEqual([]);
  const lag = Math.max(0, ...calls.filter((c) => c.sentAt >= answeredAt && oldTerms(c)).map((c) => c.sentAt - answeredAt));
  console.info(`[budget-changes] ${label}: worst lag ${lag.toFixed(1)} ms over ${calls.length} calls`);
  return lag;
}

async function created(response: Promise<Response>): Promise<{ id: string; key: string }> {
  const answer = await response;
  if (answer.status !== 201) throw new Error(`creation failed: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as { id: string; key: string };
}

/** The three changes, against a gateway in either mode. */
function changeCases(mode: string, harness: () => Harness): void {
  const newTeam = (name: string) => created(harness().admin('POST', '/admin/v1/teams', { name, budget_usd: 100 }));
  const newKey = (name: string, teamId: string | null, models = ['g']) =>
    created(harness().admin('POST', '/admin/v1/keys', { name, models, budget_usd: 50, team_id: teamId }));

  it("refuse a busy key's calls once its team's budget is cut to 0", async () => {
    const h = harness();
    const team = await newTeam(`cut-${mode}`);
    const key = await newKey('cut', team.id);
    const { calls, answeredAt } = await aroundChange(h, key.key, 'g', () =>
      h.admin('PATCH', `/admin/v1/teams/${team.id}`, { budget_usd: 0 }),
    );
    worstLag(`${mode}, team budget cut to 0`, calls, answeredAt, (c) => c.status === 200);
    for (const c of calls.filter((call) => call.sentAt >= answeredAt + GRACE_MS)) {
      expect(c).toMatchObject({ status: 422, code: 'budget_exceeded' });
    }
  });

  it('bill every call of a busy key to its new team once it is moved', async () => {
    const h = harness();
    const [teamA, teamB] = [await newTeam(`a-${mode}`), await newTeam(`b-${mode}`)];
    const key = await newKey('moved', teamA.id);
    const { calls, answeredAt } = await aroundChange(h, key.key, 'g', () =>
      h.admin('PATCH', `/admin/v1/keys/${key.id}`, { team_id: teamB.id }),
    );
    expect(calls.every((c) => c.status === 200)).toBe(true);
    const teamOf = new Map<string, string | null>();
    await eventually(async () => {
      const page = (await (await h.admin('GET', `/admin/v1/spend/logs?key_id=${key.id}&limit=1000`)).json()) as {
        data: { id: string; team_id: string | null }[];
      };
      for (const row of page.data) teamOf.set(row.id, row.team_id);
      return calls.every((c) => c.id !== undefined && teamOf.has(c.id));
    }, 10_000);
    worstLag(`${mode}, key moved to another team`, calls, answeredAt, (c) => teamOf.get(c.id as string) !== teamB.id);
    expect(calls.filter((c) => c.sentAt < answeredAt).some((c) => teamOf.get(c.id as string) === teamA.id)).toBe(true);
  });

  it("refuse a busy key's calls to a group taken off its model list", async () => {
    const h = harness();
    const key = await newKey('narrowed', null, ['g', 'h']);
    const { calls, answeredAt } = await aroundChange(h, key.key, 'h', () =>
      h.admin('PATCH', `/admin/v1/keys/${key.id}`, { models: ['g'] }),
    );
    worstLag(`${mode}, model list narrowed`, calls, answeredAt, (c) => c.status === 200);
    for (const c of calls.filter((call) => call.sentAt >= answeredAt + GRACE_MS)) expect(c.code).toBe('model_not_allowed');
  });
}

describe('key and team changes in one process', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    // The edge's key cache as long as the leases' TTL: the broadcast, not expiry, must end the old terms.
    gateway = await startTestGateway({
      env: { CHAT_KEY: 'chat-credential' },
      config: parseConfig(configText(2000), 'budget-changes'),
    });
  });
  afterAll(async () => {
    await stopTestGateway(gateway);
  });

  changeCases('one process', () => ({ edges: [gateway.url], admin: (method, path, body) => gateway.admin(method, path, body) }));
});

describe('key and team changes in separate processes (two edges, two chat replicas)', () => {
  let nats: NatsServer;
  let dir: string;
  let gateway: SeparateGateway | undefined;
  let edges: string[] = [];

  beforeAll(async () => {
    nats = await NatsServer.start();
    dir = await mkdtemp(join(tmpdir(), 'gateway-budget-changes-'));
    const configPath = join(dir, 'gateway.yaml');
    await writeFile(configPath, configText(2000));
    gateway = await startSeparate({
      args: ['--replicas', 'edge=2,chat=2'],
      env: {
        GATEWAY_CONFIG: configPath,
        GATEWAY_DATA_DIR: join(dir, 'data'),
        NATS_URL: nats.url,
        ADMIN_TOKEN,
        CHAT_KEY: 'chat-credential',
        LOG_LEVEL: 'info',
      },
    });
    edges = gateway.edges;
  }, 90_000);

  afterAll(async () => {
    await gateway?.stop();
    await nats?.stop();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  changeCases('separate processes', () => ({
    edges,
    admin: (method, path, body) =>
      fetch(`${edges[0] as string}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
      }),
  }));
});

afterAll(async () => {
  await chatSim.close();
});
