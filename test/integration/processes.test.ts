import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/gateway.js';
import { NatsServer } from '../helpers/nats-server.js';
import { type SeparateGateway, type SeparateLine, startSeparate } from '../helpers/separate.js';

// The one documented command for separate processes (`gateway start --separate`), run as
// operators run it: two edges, two chat services, one video, one accounting, each its own
// Node process with its own data folder, over loopback gRPC and a real nats-server.

const ADMIN = 'processes-admin-token-0123456789';
const PRICE = { input: 2, output: 4 };

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'chat-credential', models: ['m'] });
const minimax = new VideoSimulator({
  protocol: 'minimax',
  credential: 'mm-credential',
  models: ['MiniMax-H3'],
  queuedPolls: 1,
  runningPolls: 1,
});
let nats: NatsServer;
let dir: string;
let gateway: SeparateGateway | undefined;
let edges: string[] = [];
let lines: SeparateLine[] = [];

beforeAll(async () => {
  nats = await NatsServer.start();
  dir = await mkdtemp(join(tmpdir(), 'gateway-processes-'));
  const [chatUrl, mmUrl] = [await chatSim.listen(), await minimax.listen()];
  const configPath = join(dir, 'gateway.yaml');
  await writeFile(
    configPath,
    `
groups:
  - id: g
    mode: chat
    aliases: [g-alias]
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: ${PRICE.input}, output_per_mtok: ${PRICE.output} }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: CHAT_KEY }]
  - id: clip
    mode: video
    video: { resolutions: [768P], default_resolution: 768P, seconds: [6, 10], ratios: ["16:9"], image_input: first_frame }
    price: { per_second_by_resolution: { 768P: 0.08 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${mmUrl}", api_key_env: MM_KEY }]
video: { poll_interval_ms: 100 }
server: { key_cache_ttl_ms: 2000 }
`,
  );
  gateway = await startSeparate({
    args: ['--replicas', 'edge=2,chat=2'],
    env: {
      GATEWAY_CONFIG: configPath,
      GATEWAY_DATA_DIR: join(dir, 'data'),
      NATS_URL: nats.url,
      ADMIN_TOKEN: ADMIN,
      CHAT_KEY: 'chat-credential',
      MM_KEY: 'mm-credential',
      LOG_LEVEL: 'debug',
    },
  });
  edges = gateway.edges;
  lines = gateway.lines;
}, 90_000);

afterAll(async () => {
  await gateway?.stop();
  await Promise.all([chatSim.close(), minimax.close()]);
  await nats?.stop();
  await rm(dir, { recursive: true, force: true });
}, 60_000);

async function admin(edge: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${edge}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function spentNanoUsd(edge: string, key: string): Promise<number> {
  const usage = (await (await fetch(`${edge}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    budget: { spent_usd: number };
  };
  return Math.round(usage.budget.spent_usd * 1e9);
}

describe('separate processes (gateway start --separate)', () => {
  it('run two edges, two chat services, video and accounting, each its own process', async () => {
    expect(edges).toHaveLength(2);
    const names = ['accounting-1', 'chat-1', 'chat-2', 'video-1', 'edge-1', 'edge-2'];
    // Log lines go out in batches (at most 50 ms after they are written).
    const processes = () => new Set(lines.map((l) => l.process).filter(Boolean));
    await eventually(() => names.every((name) => processes().has(name)), 5000);
    for (const name of names) expect(processes()).toContain(name);
  });

  it('serve chat through both edges, spread over both chat services, metered once over NATS', async () => {
    const created = await admin(edges[0]!, 'POST', '/admin/v1/keys', { name: 'p', models: ['g', 'clip'], budget_usd: 50 });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    let expected = 0;
    for (let i = 0; i < 12; i += 1) {
      const client = new OpenAI({ apiKey: key, baseURL: `${edges[i % 2]!}/v1`, maxRetries: 0 });
      if (i % 3 === 0) {
        const stream = await client.chat.completions.create({
          model: 'g-alias',
          messages: [{ role: 'user', content: `Stream ${i}` }],
          stream: true,
          stream_options: { include_usage: true },
        });
        let usage: OpenAI.CompletionUsage | undefined;
        for await (const chunk of stream) {
          expect(chunk.model).toBe('g-alias');
          if (chunk.usage) usage = chunk.usage;
        }
        expected += usage!.prompt_tokens * PRICE.input * 1000 + usage!.completion_tokens * PRICE.output * 1000;
      } else {
        const completion = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: `Hello ${i}` }] });
        expect(completion.model).toBe('g');
        expected += completion.usage!.prompt_tokens * PRICE.input * 1000 + completion.usage!.completion_tokens * PRICE.output * 1000;
      }
    }
    // Spend from both chat processes reaches the one accounting over NATS, exactly once each.
    await eventually(async () => (await spentNanoUsd(edges[1]!, key)) === expected, 10_000);
    const served = (name: string) => lines.filter((l) => l.process === name && l.msg === 'chat completion served').length;
    // Each chat process's log lines go out in batches, at most 50 ms after they are written.
    await eventually(() => served('chat-1') + served('chat-2') >= 12, 5000);
    expect(served('chat-1') + served('chat-2')).toBe(12);
    expect(served('chat-1')).toBeGreaterThan(0);
    expect(served('chat-2')).toBeGreaterThan(0);
  });

  it('run a video job created through one edge and downloaded through the other, billed once', async () => {
    const { key } = (await (await admin(edges[1]!, 'POST', '/admin/v1/keys', { name: 'v', models: ['clip'], budget_usd: 5 })).json()) as {
      key: string;
    };
    const auth = { authorization: `Bearer ${key}` };
    const created = await fetch(`${edges[0]!}/v1/videos`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'clip', prompt: 'A lighthouse at dusk', seconds: 6 }),
    });
    expect(created.status).toBe(200);
    const job = (await created.json()) as { id: string; status: string };
    await eventually(
      async () =>
        ((await (await fetch(`${edges[1]!}/v1/videos/${job.id}`, { headers: auth })).json()) as { status: string }).status === 'completed',
      15_000,
    );
    const content = await fetch(`${edges[1]!}/v1/videos/${job.id}/content`, { headers: auth });
    expect(content.status).toBe(200);
    expect((await content.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // 6 s at 0.08 USD per second.
    await eventually(async () => (await spentNanoUsd(edges[0]!, key)) === 480_000_000, 10_000);
  });

  it('stop a revoked key on the other edge at once (the change crosses NATS)', async () => {
    const created = (await (await admin(edges[0]!, 'POST', '/admin/v1/keys', { name: 'r', models: ['g'], budget_usd: 1 })).json()) as {
      id: string;
      key: string;
    };
    const models = () => fetch(`${edges[1]!}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } });
    expect((await models()).status).toBe(200);
    expect((await admin(edges[0]!, 'DELETE', `/admin/v1/keys/${created.id}`)).status).toBe(200);
    // The edge caches keys for 2 s here: only the broadcast makes this pass within 1 s.
    await eventually(async () => (await models()).status === 401, 1000);
  });

  it("continue each other's Responses conversations: both chat services read stored turns through accounting", async () => {
    const { key } = (await (await admin(edges[0]!, 'POST', '/admin/v1/keys', { name: 'r', models: ['g'], budget_usd: 1 })).json()) as {
      key: string;
    };
    let previous: string | undefined;
    const ids: string[] = [];
    for (let turn = 0; turn < 6; turn += 1) {
      const client = new OpenAI({ apiKey: key, baseURL: `${edges[turn % 2]!}/v1`, maxRetries: 0 });
      const response = await client.responses.create({
        model: 'g',
        input: `Turn ${turn}`,
        ...(previous ? { previous_response_id: previous } : {}),
      });
      expect(response.status).toBe('completed');
      previous = response.id;
      ids.push(response.id);
    }
    const reader = new OpenAI({ apiKey: key, baseURL: `${edges[1]!}/v1`, maxRetries: 0 });
    const items = await reader.responses.inputItems.list(previous!, { order: 'asc', limit: 100 });
    // Every earlier turn's input and answer, then the last input.
    expect(items.data).toHaveLength(11);
    const served = (name: string) =>
      lines.filter((l) => l.process === name && l.msg === 'chat completion served' && ids.includes(String(l.completionId))).length;
    await eventually(() => served('chat-1') + served('chat-2') === 6, 5000);
    expect(served('chat-1')).toBeGreaterThan(0);
    expect(served('chat-2')).toBeGreaterThan(0);
    // One sealing key for both chat processes, made once in the root folder and handed to each.
    expect(existsSync(join(dir, 'data', 'encryption.key'))).toBe(true);
    expect(existsSync(join(dir, 'data', 'chat-1', 'encryption.key'))).toBe(false);
    expect(existsSync(join(dir, 'data', 'chat-2', 'encryption.key'))).toBe(false);
  });

  it('keep serving while a chat process is killed, and bring it back', async () => {
    const { key } = (await (await admin(edges[0]!, 'POST', '/admin/v1/keys', { name: 'k', models: ['g'], budget_usd: 1 })).json()) as {
      key: string;
    };
    const before = lines.filter((l) => l.process === 'chat-1' && l.msg === 'chat listening').length;
    const pid = await chatPid();
    process.kill(pid, 'SIGKILL');
    const client = new OpenAI({ apiKey: key, baseURL: `${edges[0]!}/v1`, maxRetries: 0 });
    // No retries by the client: the edge sends a call whose connection failed to the other replica.
    for (let i = 0; i < 4; i += 1) {
      const completion = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Still there?' }] });
      expect(completion.choices[0]?.message.content).toBeTruthy();
      const stream = await client.chat.completions.create({
        model: 'g',
        messages: [{ role: 'user', content: 'Still streaming?' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBeTruthy();
    }
    await eventually(() => lines.filter((l) => l.process === 'chat-1' && l.msg === 'chat listening').length > before, 10_000);
  });
});

describe('key operations across processes (changes cross NATS)', () => {
  const call = (edge: string, secret: string, path: string, init: RequestInit = {}) =>
    fetch(`${edge}${path}`, { ...init, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' } });
  const chat = (edge: string, secret: string, model = 'g') =>
    call(edge, secret, '/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 20 }),
    });
  const createKey = async (edge: string, body: Record<string, unknown>) =>
    (await (await admin(edge, 'POST', '/admin/v1/keys', { name: 'op', models: ['g', 'clip'], budget_usd: 5, ...body })).json()) as {
      id: string;
      key: string;
    };
  const keyOf = async (id: string) =>
    (await (await admin(edges[0]!, 'GET', `/admin/v1/keys/${id}`)).json()) as { spent_usd: number; reserved_usd: number };

  it('apply an update made through one edge on the other at once, though it caches keys for 2 s', async () => {
    const key = await createKey(edges[0]!, {});
    expect((await chat(edges[1]!, key.key)).status).toBe(200);
    expect((await admin(edges[0]!, 'PATCH', `/admin/v1/keys/${key.id}`, { models: ['clip'] })).status).toBe(200);
    await eventually(async () => (await chat(edges[1]!, key.key)).status === 401, 1000);
    await admin(edges[0]!, 'PATCH', `/admin/v1/keys/${key.id}`, { models: ['g'] });
    await eventually(async () => (await keyOf(key.id)).reserved_usd === 0 && (await keyOf(key.id)).spent_usd > 0, 10_000);
    // A budget lowered under the spend refuses the next call on the other edge.
    await admin(edges[0]!, 'PATCH', `/admin/v1/keys/${key.id}`, { budget_usd: 0.000001 });
    await eventually(async () => (await chat(edges[1]!, key.key)).status === 422, 1000);
  });

  it('rotate through one edge: the old secret works on the other during the grace, and stops there at once after', async () => {
    const key = await createKey(edges[0]!, {});
    expect((await call(edges[1]!, key.key, '/v1/models')).status).toBe(200);
    const graced = (await (await admin(edges[0]!, 'POST', `/admin/v1/keys/${key.id}/rotate`, { grace_seconds: 300 })).json()) as {
      key: string;
    };
    expect((await call(edges[1]!, key.key, '/v1/models')).status).toBe(200);
    expect((await call(edges[1]!, graced.key, '/v1/models')).status).toBe(200);
    const final = (await (await admin(edges[1]!, 'POST', `/admin/v1/keys/${key.id}/rotate`)).json()) as { key: string };
    await eventually(async () => (await call(edges[0]!, graced.key, '/v1/models')).status === 401, 1000);
    await eventually(async () => (await call(edges[1]!, key.key, '/v1/models')).status === 401, 1000);
    expect((await call(edges[0]!, final.key, '/v1/models')).status).toBe(200);
  });

  it("share a team's budget and models across edges; a team change reaches every edge at once", async () => {
    const team = (await (await admin(edges[0]!, 'POST', '/admin/v1/teams', { name: 'cross', budget_usd: 10 })).json()) as { id: string };
    const [a, b] = [await createKey(edges[0]!, { team_id: team.id }), await createKey(edges[1]!, { team_id: team.id })];
    for (let i = 0; i < 4; i += 1) expect((await chat(edges[i % 2]!, i % 2 ? a.key : b.key)).status).toBe(200);
    expect((await admin(edges[1]!, 'PATCH', `/admin/v1/teams/${team.id}`, { models: ['clip'] })).status).toBe(200);
    await eventually(async () => (await chat(edges[0]!, a.key)).status === 401, 1000);
    await eventually(async () => (await chat(edges[1]!, b.key)).status === 401, 1000);
    const teamOf = async () =>
      (await (await admin(edges[1]!, 'GET', `/admin/v1/teams/${team.id}`)).json()) as { spent_usd: number; reserved_usd: number };
    await eventually(async () => (await teamOf()).reserved_usd === 0, 10_000);
    const [ka, kb, t] = [await keyOf(a.id), await keyOf(b.id), await teamOf()];
    expect(t.spent_usd).toBeGreaterThan(0);
    expect(Math.round((ka.spent_usd + kb.spent_usd) * 1e9)).toBe(Math.round(t.spent_usd * 1e9));

    // Every call through both edges and both chat services: one spend-log row each, summing to the spend.
    const logs = (await (await admin(edges[1]!, 'GET', `/admin/v1/spend/logs?team_id=${team.id}`)).json()) as {
      data: { id: string; cost_usd: number; key_id: string }[];
    };
    expect(logs.data).toHaveLength(4);
    expect(new Set(logs.data.map((r) => r.id)).size).toBe(4);
    expect(Math.round(logs.data.reduce((sum, r) => sum + r.cost_usd, 0) * 1e9)).toBe(Math.round(t.spent_usd * 1e9));
    const daily = (await (await admin(edges[0]!, 'GET', `/admin/v1/spend/daily?team_id=${team.id}`)).json()) as {
      data: { requests: number; spend_usd: number }[];
    };
    expect(daily.data.reduce((sum, d) => sum + d.requests, 0)).toBe(4);
    const audit = (await (await admin(edges[0]!, 'GET', `/admin/v1/audit?target_id=${team.id}`)).json()) as {
      data: { action: string; route: string }[];
    };
    expect(audit.data.map((e) => [e.action, e.route])).toEqual([
      ['team.updated', 'PATCH /admin/v1/teams/{id}'],
      ['team.created', 'POST /admin/v1/teams'],
    ]);
  });

  it('stop an expired key on every edge, saying it expired', async () => {
    const key = await createKey(edges[0]!, { expires_at: Math.floor(Date.now() / 1000) + 3 });
    expect((await call(edges[1]!, key.key, '/v1/models')).status).toBe(200);
    await eventually(async () => (await call(edges[1]!, key.key, '/v1/models')).status === 401, 6000);
    const error = (await (await call(edges[0]!, key.key, '/v1/models')).json()) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('invalid_api_key');
    expect(error.error.message).toMatch(/expired/);
  });
});

/** chat-1's pid, as the supervisor announced it when ready. */
async function chatPid(): Promise<number> {
  const pid = lines.find((l) => l.msg === 'gateway ready')?.pids?.['chat-1'];
  if (!pid) throw new Error("the supervisor did not name chat-1's pid");
  return pid;
}
