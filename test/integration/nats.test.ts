import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAccounting } from '@gateway/accounting';
import { startChat } from '@gateway/chat';
import { parseConfig } from '@gateway/config';
import { AccountingClient, accountingBudget, BudgetLeases } from '@gateway/contracts';
import { startEdge } from '@gateway/edge';
import { silentLogger } from '@gateway/logging';
import { openBus, type OpenedBus, type RunningService } from '@gateway/runtime';
import { ChatSimulator } from '@gateway/simulators';
import { SqliteStore } from '@gateway/store';
import { startVideo } from '@gateway/video';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/gateway.js';
import { NatsServer } from '../helpers/nats-server.js';

// The services wired as separate processes are: each with its own bus connection to a real
// nats-server (and its own outbox), so spend and key changes cross over NATS only.

const ADMIN = 'nats-admin-token-0123456789';
let nats: NatsServer;
let dir: string;
let sim: ChatSimulator;
const buses: OpenedBus[] = [];
const services: RunningService[] = [];
let edgeUrl: string;
/** Added to the real time on accounting's clock (budget periods). */
let offsetMs = 0;
const clock = () => Date.now() + offsetMs;
let budgetClient: AccountingClient;

beforeAll(async () => {
  nats = await NatsServer.start();
  dir = await mkdtemp(join(tmpdir(), 'gateway-nats-it-'));
  sim = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'] });
  const simUrl = await sim.listen();
  const config = parseConfig(
    `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: m, api_base: "${simUrl}/v1", api_key_env: K }]
server: { key_cache_ttl_ms: 2000 }
`,
    'nats-it',
  );
  const env = (name: string) => ({ NATS_URL: nats.url, GATEWAY_DATA_DIR: join(dir, name), K: 'c' });
  const bus = async (name: string) => {
    const opened = await openBus(name, env(name), silentLogger());
    buses.push(opened);
    return opened.bus;
  };
  const logger = silentLogger();
  const accounting = await startAccounting({
    config,
    bus: await bus('accounting'),
    store: new SqliteStore(join(dir, 'accounting-store')),
    logger,
    env: env('accounting'),
    listen: '127.0.0.1:0',
    clock,
  });
  // Chat holds each call's price in accounting as the separate chat process does.
  budgetClient = new AccountingClient(accounting.address);
  const chat = await startChat({
    config,
    bus: await bus('chat'),
    logger,
    env: env('chat'),
    listen: '127.0.0.1:0',
    budget: new BudgetLeases(budgetClient, accountingBudget(budgetClient)),
  });
  const video = await startVideo({
    config,
    bus: await bus('video'),
    store: new SqliteStore(join(dir, 'video-store')),
    logger,
    env: env('video'),
    listen: '127.0.0.1:0',
  });
  services.push(accounting, chat, video);
  const edge = await startEdge({
    config,
    bus: await bus('edge'),
    logger,
    adminToken: ADMIN,
    host: '127.0.0.1',
    port: 0,
    services: { accounting: accounting.address, chat: chat.address, video: video.address },
  });
  services.push(edge);
  edgeUrl = `http://127.0.0.1:${edge.port}`;
});

afterAll(async () => {
  for (const service of services.reverse()) await service.close();
  budgetClient.close();
  for (const opened of buses) await opened.close();
  await sim.close();
  await nats.destroy();
  await rm(dir, { recursive: true, force: true });
});

async function createKey(body: Record<string, unknown> = {}): Promise<{ id: string; key: string }> {
  const response = await fetch(`${edgeUrl}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'n', models: ['*'], budget_usd: 10, ...body }),
  });
  return (await response.json()) as { id: string; key: string };
}

async function keyOf(id: string) {
  return (await (await fetch(`${edgeUrl}/admin/v1/keys/${id}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
    spent_usd: number;
    lifetime_spent_usd: number;
    reserved_usd: number;
    resets_at: number;
    period_start: number;
  };
}

describe('services over NATS', () => {
  it('meters a chat call in accounting through JetStream', async () => {
    const { key } = await createKey();
    const client = new OpenAI({ apiKey: key, baseURL: `${edgeUrl}/v1`, maxRetries: 0 });
    const result = await client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Hello there' }] });
    const cost = (result.usage?.prompt_tokens ?? 0) * 1000 + (result.usage?.completion_tokens ?? 0) * 2000;
    await eventually(async () => {
      const usage = (await (await fetch(`${edgeUrl}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        budget: { spent_usd: number };
      };
      return Math.round(usage.budget.spent_usd * 1e9) === cost;
    }, 10_000);
  });

  it('stops a revoked key at once on an edge that caches keys for 2 s', async () => {
    const { id, key } = await createKey();
    const headers = { authorization: `Bearer ${key}` };
    expect((await fetch(`${edgeUrl}/v1/models`, { headers })).status).toBe(200);
    await fetch(`${edgeUrl}/admin/v1/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
    const revokedAt = Date.now();
    await eventually(async () => (await fetch(`${edgeUrl}/v1/models`, { headers })).status === 401, 2000);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('starts a monthly budget again at the boundary; a call held before it is charged to the old month', async () => {
    const { id, key } = await createKey({ budget_usd: 0.0001, budget_period: 'monthly' });
    const accounting = new AccountingClient(services[0]!.address);
    // A call held in this month whose spend arrives only after the reset.
    await accounting.reserveBudget({ keyId: id, group: 'g', amountNanoUsd: 10_000, reservationId: 'chatcmpl-held-over' });
    const client = new OpenAI({ apiKey: key, baseURL: `${edgeUrl}/v1`, maxRetries: 0 });
    const ask = () => client.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Hello there' }], max_tokens: 20 });
    let refused: unknown;
    for (let i = 0; i < 20 && !refused; i += 1)
      refused = await ask().then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('budget_exceeded');
    await eventually(async () => (await keyOf(id)).reserved_usd === 0.00001, 10_000);
    const month = await keyOf(id);
    expect(month.spent_usd).toBeGreaterThan(0);

    offsetMs = month.resets_at * 1000 - Date.now() + 1000;
    const reset = await keyOf(id);
    expect(reset).toMatchObject({ spent_usd: 0, lifetime_spent_usd: month.lifetime_spent_usd, period_start: month.resets_at });
    const event = {
      id: 'chatcmpl-held-over',
      kind: 'chat',
      key_id: id,
      group: 'g',
      cost_nano_usd: 8_000,
      occurred_at: Date.now(),
      reservation_id: 'chatcmpl-held-over',
    };
    await buses[1]!.bus.publish('spend.v1.chat', event.id, event);
    await eventually(async () => (await keyOf(id)).reserved_usd === 0, 10_000);
    const after = await keyOf(id);
    expect(after.spent_usd).toBe(0);
    expect(Math.round(after.lifetime_spent_usd * 1e9)).toBe(Math.round(month.lifetime_spent_usd * 1e9) + 8_000);
    // The new month's budget is whole: calls go through again (the edge drops its cached spend within its TTL).
    await eventually(
      async () =>
        ask().then(
          () => true,
          () => false,
        ),
      3000,
    );
    accounting.close();
    offsetMs = 0;
  });

  it('applies spend published while accounting is down once it is back, once', async () => {
    const { id: keyId, key } = await createKey();
    const accounting = services[0]!;
    await accounting.close();
    const chatBus = buses[1]!.bus;
    const event = { id: 'chatcmpl-while-down', kind: 'chat', key_id: keyId, group: 'g', cost_nano_usd: 777, occurred_at: Date.now() };
    await chatBus.publish('spend.v1.chat', event.id, event);
    await chatBus.publish('spend.v1.chat', event.id, event);
    // Accounting returns on the same address, store and durable consumer.
    const config = parseConfig(`groups: []\nserver: { key_cache_ttl_ms: 0 }\n`, 'nats-it-restart');
    const restarted = await startAccounting({
      config,
      bus: buses[0]!.bus,
      store: new SqliteStore(join(dir, 'accounting-store')),
      logger: silentLogger(),
      env: { NATS_URL: nats.url },
      listen: accounting.address,
      clock,
    });
    services[0] = restarted;
    await eventually(async () => {
      const usage = (await (await fetch(`${edgeUrl}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        budget?: { spent_usd: number };
      };
      return usage.budget !== undefined && Math.round(usage.budget.spent_usd * 1e9) === 777;
    }, 15_000);
  });

  it('reports the bus in readiness', async () => {
    const body = (await (await fetch(`${edgeUrl}/health/readiness`)).json()) as { checks: Record<string, string> };
    expect(body.checks).toEqual({ bus: 'up', accounting: 'up', chat: 'up', video: 'up' });
  });
});
