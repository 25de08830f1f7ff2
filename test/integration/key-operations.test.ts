import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// A key's whole life through the admin API against a running one-process gateway: updates,
// rotation, expiry, budgets that reset, teams, spend logs, daily spend and the audit list.
// Accounting runs on a clock the tests move forward (budget periods, expiry, grace); the edge
// keeps its default key cache, so every change here must reach it through the key-change event.

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'], record: false });
const ark = new VideoSimulator({ protocol: 'ark', credential: 'a', models: ['s'], queuedPolls: 0, runningPolls: 1 });
let gateway: TestGateway;
/** Added to the real time on accounting's clock. */
let offsetMs = 0;

beforeAll(async () => {
  const [chatUrl, arkUrl] = [await chatSim.listen(), await ark.listen()];
  gateway = await startTestGateway({
    env: { C: 'c', A: 'a' },
    clock: () => Date.now() + offsetMs,
    config: parseConfig(
      `
groups:
  - id: g
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1000, output_per_mtok: 1000 }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: C }]
  - id: h
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1000, output_per_mtok: 1000 }
    deployments: [{ provider: openai, model: m, api_base: "${chatUrl}/v1", api_key_env: C }]
  - id: beta-dance
    mode: video
    video: { resolutions: [480p], default_resolution: 480p, seconds: [4, 30], ratios: ["16:9"], image_input: first_frame }
    price: { per_mtok_by_resolution: { 480p: 10.70 } }
    deployments: [{ provider: ark, model: s, api_base: "${arkUrl}/api/v3", api_key_env: A }]
video: { poll_interval_ms: 50 }
`,
      'key-operations-test',
    ),
  });
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await Promise.all([chatSim.close(), ark.close()]);
});

interface KeyObject {
  id: string;
  key?: string;
  name: string;
  hint: string;
  models: string[];
  team_id: string | null;
  metadata: Record<string, string>;
  budget_usd: number;
  budget_period: string | null;
  period_start: number;
  resets_at: number | null;
  spent_usd: number;
  lifetime_spent_usd: number;
  reserved_usd: number;
  rpm: number | null;
  tpm: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  rotated_at: number | null;
  previous_secret_expires_at: number | null;
}

interface ErrorBody {
  error: { code: string; message: string; param: string | null };
}

async function json<T>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

async function createKey(body: Record<string, unknown>): Promise<KeyObject & { key: string }> {
  const response = await gateway.admin('POST', '/admin/v1/keys', { name: 'k', models: ['*'], budget_usd: 10, ...body });
  expect(response.status).toBe(201);
  return json(response);
}

async function createTeam(body: Record<string, unknown>): Promise<{ id: string; name: string }> {
  const response = await gateway.admin('POST', '/admin/v1/teams', { name: 'team', ...body });
  expect(response.status).toBe(201);
  return json(response);
}

const getKey = (id: string) => json<KeyObject>(gateway.admin('GET', `/admin/v1/keys/${id}`));
const patch = (id: string, body: unknown) => gateway.admin('PATCH', `/admin/v1/keys/${id}`, body);

function chat(secret: string, model = 'g', content = 'Count to three') {
  return gateway.call('/v1/chat/completions', secret, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }], max_tokens: 20 }),
  });
}

async function errorOf(response: Response | Promise<Response>): Promise<{ status: number } & ErrorBody['error']> {
  const r = await response;
  return { status: r.status, ...(await json<ErrorBody>(r)).error };
}

/** Waits until the key holds nothing (the chat service's lease went back). */
async function settled(id: string): Promise<KeyObject> {
  await eventually(async () => (await getKey(id)).reserved_usd === 0, 10_000);
  return getKey(id);
}

describe('PATCH /admin/v1/keys/{id}', () => {
  it('changes each field, clears with null, and shows it in GET', async () => {
    const team = await createTeam({ name: 'patch-team' });
    const key = await createKey({ name: 'before', rpm: 5, tpm: 500 });
    const expires = Math.floor((Date.now() + offsetMs) / 1000) + 3600;
    const changed = await json<KeyObject>(
      patch(key.id, {
        name: 'after',
        models: ['g'],
        budget_usd: 3.5,
        rpm: 7,
        tpm: 900,
        budget_period: 'weekly',
        expires_at: expires,
        team_id: team.id,
        metadata: { owner: 'ml', cost_center: '42' },
      }),
    );
    expect(changed).toMatchObject({
      name: 'after',
      models: ['g'],
      budget_usd: 3.5,
      rpm: 7,
      tpm: 900,
      budget_period: 'weekly',
      expires_at: expires,
      team_id: team.id,
      metadata: { owner: 'ml', cost_center: '42' },
    });
    expect(await getKey(key.id)).toMatchObject(changed);
    expect(changed).not.toHaveProperty('key');
    const cleared = await json<KeyObject>(patch(key.id, { rpm: null, tpm: null, budget_period: null, expires_at: null, team_id: null }));
    expect(cleared).toMatchObject({ rpm: null, tpm: null, budget_period: null, expires_at: null, team_id: null, resets_at: null });
    // An empty body changes nothing.
    expect(await json<KeyObject>(patch(key.id, {}))).toMatchObject({ name: 'after', budget_usd: 3.5 });
  });

  it('refuses unknown fields and invalid values with 422 naming the field, unknown keys with 404, revoked ones with 409', async () => {
    const key = await createKey({});
    const cases: [Record<string, unknown>, string][] = [
      [{ bogus: 1 }, 'bogus'],
      [{ budget_usd: -1 }, 'budget_usd'],
      [{ rpm: 0 }, 'rpm'],
      [{ budget_period: 'yearly' }, 'budget_period'],
      [{ expires_at: 1000 }, 'expires_at'],
      [{ team_id: 'team_nope' }, 'team_id'],
      [{ models: ['nope'] }, 'models'],
      [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [{ name: '' }, 'name'],
    ];
    for (const [body, param] of cases) {
      const error = await errorOf(patch(key.id, body));
      expect({ body, status: error.status, code: error.code, param: error.param }).toEqual({
        body,
        status: 422,
        code: 'invalid_request',
        param,
      });
    }
    expect(await errorOf(patch('key_missing', { name: 'x' }))).toMatchObject({ status: 404, code: 'key_not_found' });
    const unauthorized = await fetch(`${gateway.url}/admin/v1/keys/${key.id}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(await errorOf(unauthorized)).toMatchObject({ status: 401, code: 'invalid_admin_token' });
    await gateway.admin('DELETE', `/admin/v1/keys/${key.id}`);
    expect(await errorOf(patch(key.id, { name: 'x' }))).toMatchObject({ status: 409, code: 'key_revoked' });
  });

  it('applies a lowered budget and narrowed models to the next call at once', async () => {
    const key = await createKey({ models: ['g', 'h'], budget_usd: 5 });
    expect((await chat(key.key)).status).toBe(200);
    const spent = (await settled(key.id)).spent_usd;
    expect(spent).toBeGreaterThan(0);
    await patch(key.id, { budget_usd: spent / 2 });
    expect(await errorOf(chat(key.key))).toMatchObject({ status: 422, code: 'budget_exceeded' });
    await patch(key.id, { budget_usd: 5, models: ['h'] });
    expect(await errorOf(chat(key.key, 'g'))).toMatchObject({ status: 401, code: 'model_not_allowed' });
    expect((await chat(key.key, 'h')).status).toBe(200);
  });
});

describe('rotation', () => {
  it('without grace: the old secret stops at once; id, budget and spend stay', async () => {
    const key = await createKey({ budget_usd: 4 });
    expect((await chat(key.key)).status).toBe(200);
    const before = await settled(key.id);
    const rotated = await json<KeyObject & { key: string }>(gateway.admin('POST', `/admin/v1/keys/${key.id}/rotate`));
    expect(rotated).toMatchObject({ id: key.id, budget_usd: 4, spent_usd: before.spent_usd, previous_secret_expires_at: null });
    expect(rotated.key).not.toBe(key.key);
    expect(rotated.hint).toBe(`sk-…${rotated.key.slice(-4)}`);
    expect(await errorOf(gateway.call('/v1/usage', key.key))).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect((await gateway.call('/v1/usage', rotated.key)).status).toBe(200);
    expect(await getKey(key.id)).not.toHaveProperty('key');
  });

  it('with grace: both work until the grace ends; a second rotation ends the first grace', async () => {
    const key = await createKey({});
    const rotated = await json<KeyObject & { key: string }>(
      gateway.admin('POST', `/admin/v1/keys/${key.id}/rotate`, { grace_seconds: 600 }),
    );
    expect(rotated.previous_secret_expires_at).toBe(rotated.rotated_at ? rotated.rotated_at + 600 : -1);
    expect((await gateway.call('/v1/usage', key.key)).status).toBe(200);
    expect((await gateway.call('/v1/usage', rotated.key)).status).toBe(200);
    offsetMs += 601_000;
    // The edge may serve its cached answer for up to its TTL (1 s); accounting refuses at once.
    await eventually(async () => (await gateway.call('/v1/usage', key.key)).status === 401, 2000);
    expect((await gateway.call('/v1/usage', rotated.key)).status).toBe(200);

    const again = await json<KeyObject & { key: string }>(gateway.admin('POST', `/admin/v1/keys/${key.id}/rotate`, { grace_seconds: 600 }));
    const third = await json<KeyObject & { key: string }>(gateway.admin('POST', `/admin/v1/keys/${key.id}/rotate`, { grace_seconds: 0 }));
    expect(await errorOf(gateway.call('/v1/usage', rotated.key))).toMatchObject({ status: 401 });
    expect(await errorOf(gateway.call('/v1/usage', again.key))).toMatchObject({ status: 401 });
    expect((await gateway.call('/v1/usage', third.key)).status).toBe(200);
  });

  it('refuses a grace over 7 days, and revoked keys', async () => {
    const key = await createKey({});
    const error = await errorOf(gateway.admin('POST', `/admin/v1/keys/${key.id}/rotate`, { grace_seconds: 604_801 }));
    expect(error).toMatchObject({ status: 422, param: 'grace_seconds' });
    await gateway.admin('DELETE', `/admin/v1/keys/${key.id}`);
    expect(await errorOf(gateway.admin('POST', `/admin/v1/keys/${key.id}/rotate`))).toMatchObject({ status: 409, code: 'key_revoked' });
    expect(await errorOf(gateway.admin('POST', '/admin/v1/keys/key_missing/rotate'))).toMatchObject({ status: 404 });
  });
});

describe('expiry', () => {
  it('answers 401 saying the key expired, set at creation or by update', async () => {
    const now = Math.floor((Date.now() + offsetMs) / 1000);
    const atCreation = await createKey({ expires_at: now + 60 });
    const byUpdate = await createKey({});
    await patch(byUpdate.id, { expires_at: now + 120 });
    expect((await gateway.call('/v1/usage', atCreation.key)).status).toBe(200);
    expect((await gateway.call('/v1/usage', byUpdate.key)).status).toBe(200);
    offsetMs += 121_000;
    for (const key of [atCreation, byUpdate]) {
      await eventually(async () => (await gateway.call('/v1/usage', key.key)).status === 401, 2000);
      const error = await errorOf(chat(key.key));
      expect(error).toMatchObject({ status: 401, code: 'invalid_api_key' });
      expect(error.message).toMatch(/expired/);
    }
    expect(
      await errorOf(gateway.admin('POST', '/admin/v1/keys', { name: 'x', models: ['*'], budget_usd: 1, expires_at: now })),
    ).toMatchObject({
      status: 422,
      param: 'expires_at',
    });
  });
});

describe('budget periods', () => {
  it('give a monthly key a fresh budget after the UTC month boundary, keeping lifetime spend', async () => {
    const key = await createKey({ budget_usd: 0.05, budget_period: 'monthly' });
    for (let i = 0; i < 10; i += 1) {
      const response = await chat(key.key);
      if (response.status === 422) break;
    }
    const used = await settled(key.id);
    expect(await errorOf(chat(key.key))).toMatchObject({ status: 422, code: 'budget_exceeded' });
    expect(used.resets_at).not.toBeNull();
    const usageBefore = await json<{ budget: { period: string; spent_usd: number; resets_at: number }; daily: unknown[] }>(
      gateway.call('/v1/usage', key.key),
    );
    expect(usageBefore.budget).toMatchObject({ period: 'monthly', spent_usd: used.spent_usd });
    expect(usageBefore.daily).toHaveLength(30);

    // Past the reset.
    offsetMs = (used.resets_at ?? 0) * 1000 - Date.now() + 5_000;
    const fresh = await getKey(key.id);
    expect(fresh).toMatchObject({ spent_usd: 0, lifetime_spent_usd: used.spent_usd, period_start: used.resets_at });
    expect(fresh.resets_at).toBeGreaterThan(used.resets_at ?? 0);
    await eventually(async () => (await chat(key.key)).status === 200, 3000);
    const after = await settled(key.id);
    expect(after.lifetime_spent_usd).toBeGreaterThan(used.spent_usd);
    expect(after.spent_usd).toBeCloseTo(after.lifetime_spent_usd - used.spent_usd, 9);
    const usage = await json<{ budget: { spent_usd: number; lifetime_spent_usd: number; period_start: number } }>(
      gateway.call('/v1/usage', key.key),
    );
    expect(usage.budget).toMatchObject({
      spent_usd: after.spent_usd,
      lifetime_spent_usd: after.lifetime_spent_usd,
      period_start: used.resets_at,
    });
  });
});

describe('teams', () => {
  it('are created, read, listed, updated and deleted once they hold no active key', async () => {
    const created = await json<{ id: string; budget_usd: number | null; models: string[] }>(
      gateway.admin('POST', '/admin/v1/teams', { name: 'crud', budget_usd: 20, budget_period: 'monthly', rpm: 100 }),
    );
    expect(created).toMatchObject({ budget_usd: 20, models: ['*'] });
    expect(await json(gateway.admin('GET', `/admin/v1/teams/${created.id}`))).toMatchObject({ id: created.id, name: 'crud' });
    const list = await json<{ data: { id: string }[] }>(gateway.admin('GET', '/admin/v1/teams?limit=1000'));
    expect(list.data.map((t) => t.id)).toContain(created.id);
    expect(
      await json(gateway.admin('PATCH', `/admin/v1/teams/${created.id}`, { budget_usd: null, rpm: null, name: 'renamed' })),
    ).toMatchObject({
      budget_usd: null,
      rpm: null,
      name: 'renamed',
    });
    expect(await errorOf(gateway.admin('PATCH', `/admin/v1/teams/${created.id}`, { colour: 'red' }))).toMatchObject({
      status: 422,
      param: 'colour',
    });
    const key = await createKey({ team_id: created.id });
    expect(await errorOf(gateway.admin('DELETE', `/admin/v1/teams/${created.id}`))).toMatchObject({ status: 409, code: 'team_not_empty' });
    await gateway.admin('DELETE', `/admin/v1/keys/${key.id}`);
    expect(await json(gateway.admin('DELETE', `/admin/v1/teams/${created.id}`))).toEqual({
      id: created.id,
      object: 'team.deleted',
      deleted: true,
    });
    expect(await errorOf(gateway.admin('GET', `/admin/v1/teams/${created.id}`))).toMatchObject({ status: 404, code: 'team_not_found' });
    expect(await errorOf(gateway.admin('PATCH', '/admin/v1/teams/team_missing', { name: 'x' }))).toMatchObject({ status: 404 });
  });

  it("narrow a key's models to the team's", async () => {
    const team = await createTeam({ name: 'narrow', models: ['g'] });
    const key = await createKey({ models: ['*'], team_id: team.id });
    expect((await chat(key.key, 'g')).status).toBe(200);
    expect(await errorOf(chat(key.key, 'h'))).toMatchObject({ status: 401, code: 'model_not_allowed' });
    const models = await json<{ data: { id: string }[] }>(gateway.call('/v1/models', key.key));
    expect(models.data.map((m) => m.id)).toEqual(['g']);
    await gateway.admin('PATCH', `/admin/v1/teams/${team.id}`, { models: ['h'] });
    expect(await errorOf(chat(key.key, 'g'))).toMatchObject({ status: 401, code: 'model_not_allowed' });
  });

  it("never let 50 racing calls from two keys pass the team's budget, and say it was the team", async () => {
    const team = await createTeam({ name: 'race', budget_usd: 0.2 });
    const keys = [await createKey({ budget_usd: 10, team_id: team.id }), await createKey({ budget_usd: 10, team_id: team.id })];
    const clients = keys.map((k) => new OpenAI({ apiKey: k.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 }));
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        clients[i % 2]?.chat.completions.create({ model: 'g', messages: [{ role: 'user', content: 'Count to three' }], max_tokens: 20 }),
      ),
    );
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.length - refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect((r.reason as InstanceType<typeof OpenAI.APIError>).code).toBe('budget_exceeded');
      expect((r.reason as Error).message).toContain('team "race"');
    }
    await eventually(
      async () => (await json<{ reserved_usd: number }>(gateway.admin('GET', `/admin/v1/teams/${team.id}`))).reserved_usd === 0,
      10_000,
    );
    const after = await json<{ spent_usd: number; lifetime_spent_usd: number }>(gateway.admin('GET', `/admin/v1/teams/${team.id}`));
    expect(after.spent_usd).toBeLessThanOrEqual(0.2);
    const [a, b] = [await settled(keys[0]?.id ?? ''), await settled(keys[1]?.id ?? '')];
    expect(Math.round((a.spent_usd + b.spent_usd) * 1e9)).toBe(Math.round(after.spent_usd * 1e9));
    expect(after.spent_usd).toBeGreaterThan(0);
  });

  it('count team rate limits and say so', async () => {
    const team = await createTeam({ name: 'limited', rpm: 2 });
    const [a, b] = [await createKey({ team_id: team.id }), await createKey({ team_id: team.id })];
    expect((await chat(a.key)).status).toBe(200);
    expect((await chat(b.key)).status).toBe(200);
    const error = await errorOf(chat(a.key));
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect(error.message).toContain('team');
  });
});

interface SpendRow {
  id: string;
  key_id: string;
  team_id: string | null;
  group: string;
  kind: string;
  cost_usd: number;
  usage: Record<string, number>;
  created_at: number;
}

describe('spend logs, daily spend and audit', () => {
  it('list every billed call and job once, as the keys were charged, filtered and paginated', async () => {
    const team = await createTeam({ name: 'logs' });
    const plain = await createKey({ name: 'plain' });
    const member = await createKey({ name: 'member', team_id: team.id });
    const ids: string[] = [];
    for (const [key, model] of [
      [plain, 'g'],
      [plain, 'h'],
      [member, 'g'],
    ] as const) {
      const completion = await json<{ id: string }>(chat(key.key, model));
      ids.push(completion.id);
    }
    const client = new OpenAI({ apiKey: member.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'h', messages: [{ role: 'user', content: 'Stream' }], stream: true });
    for await (const chunk of stream) if (!ids.includes(chunk.id)) ids.push(chunk.id);
    const video = await json<{ id: string }>(
      gateway.call('/v1/videos', plain.key, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'beta-dance', prompt: 'a wave', seconds: 4 }),
      }),
    );
    ids.push(video.id);
    await eventually(
      async () => (await json<{ status: string }>(gateway.call(`/v1/videos/${video.id}`, plain.key))).status === 'completed',
      10_000,
    );
    const [p, m] = [await settled(plain.id), await settled(member.id)];

    const rowsOf = async (query: string) => (await json<{ data: SpendRow[] }>(gateway.admin('GET', `/admin/v1/spend/logs?${query}`))).data;
    await eventually(async () => (await rowsOf(`key_id=${plain.id}`)).length === 3 && (await rowsOf(`key_id=${member.id}`)).length === 2);
    const plainRows = await rowsOf(`key_id=${plain.id}`);
    const memberRows = await rowsOf(`key_id=${member.id}`);
    expect([...plainRows, ...memberRows].map((r) => r.id).sort()).toEqual([...ids].sort());
    const sum = (rows: SpendRow[]) => Math.round(rows.reduce((total, r) => total + r.cost_usd, 0) * 1e9);
    expect(sum(plainRows)).toBe(Math.round(p.spent_usd * 1e9));
    expect(sum(memberRows)).toBe(Math.round(m.spent_usd * 1e9));
    expect(plainRows.find((r) => r.id === video.id)).toMatchObject({ kind: 'video', group: 'beta-dance', team_id: null });
    expect(memberRows.every((r) => r.team_id === team.id && r.kind === 'chat')).toBe(true);
    expect((await rowsOf(`team_id=${team.id}`)).map((r) => r.id).sort()).toEqual(memberRows.map((r) => r.id).sort());
    expect((await rowsOf(`key_id=${plain.id}&group=h`)).map((r) => r.group)).toEqual(['h']);
    const newestFirst = plainRows.map((r) => r.created_at);
    expect([...newestFirst].sort((x, y) => y - x)).toEqual(newestFirst);
    const from = Math.min(...plainRows.map((r) => r.created_at));
    expect(await rowsOf(`key_id=${plain.id}&from=${from}&to=${from}`)).toEqual([]);
    expect((await rowsOf(`key_id=${plain.id}&from=${from}`)).length).toBe(3);

    // Two rows a page, every row once, newest first.
    const walked: string[] = [];
    let after: string | null = null;
    do {
      const page: { data: SpendRow[]; next_after: string | null; has_more: boolean } = await json(
        gateway.admin('GET', `/admin/v1/spend/logs?key_id=${plain.id}&limit=2${after ? `&after=${after}` : ''}`),
      );
      walked.push(...page.data.map((r) => r.id));
      after = page.next_after;
      expect(page.has_more).toBe(after !== null);
    } while (after);
    expect(walked).toEqual(plainRows.map((r) => r.id));
    expect(await errorOf(gateway.admin('GET', '/admin/v1/spend/logs?after=bogus'))).toMatchObject({ status: 422, param: 'after' });
    expect(await errorOf(gateway.admin('GET', '/admin/v1/spend/logs?limit=5000'))).toMatchObject({ status: 422 });

    // A key reads its own log, and only its own: the same rows, filtered and paginated alike.
    const ownRows = async (secret: string, query = '') =>
      (await json<{ data: SpendRow[] }>(gateway.call(`/v1/usage/logs${query ? `?${query}` : ''}`, secret))).data;
    expect(await ownRows(plain.key)).toEqual(plainRows);
    expect(await ownRows(member.key)).toEqual(memberRows);
    expect((await ownRows(plain.key, 'group=h')).map((r) => r.group)).toEqual(['h']);
    const ownWalked: string[] = [];
    let ownAfter: string | null = null;
    do {
      const ownPage: { data: SpendRow[]; next_after: string | null } = await json(
        gateway.call(`/v1/usage/logs?limit=2${ownAfter ? `&after=${ownAfter}` : ''}`, plain.key),
      );
      ownWalked.push(...ownPage.data.map((r) => r.id));
      ownAfter = ownPage.next_after;
    } while (ownAfter);
    expect(ownWalked).toEqual(plainRows.map((r) => r.id));
    // Naming another key (or a team) is refused, never honoured.
    expect(await errorOf(gateway.call(`/v1/usage/logs?key_id=${member.id}`, plain.key))).toMatchObject({ status: 422, param: 'key_id' });
    expect(await errorOf(gateway.call(`/v1/usage/logs?team_id=${team.id}`, member.key))).toMatchObject({ status: 422, param: 'team_id' });
    expect(await errorOf(gateway.call('/v1/usage/logs?after=bogus', plain.key))).toMatchObject({ status: 422, param: 'after' });
    expect((await gateway.call('/v1/usage/logs', 'sk-not-a-key')).status).toBe(401);

    // Daily spend and the key's own 30 days agree with the ledger.
    const daily = await json<{ data: { date: string; group: string; spend_usd: number; requests: number }[] }>(
      gateway.admin('GET', `/admin/v1/spend/daily?key_id=${plain.id}`),
    );
    expect(Math.round(daily.data.reduce((t, d) => t + d.spend_usd, 0) * 1e9)).toBe(Math.round(p.spent_usd * 1e9));
    expect(daily.data.reduce((t, d) => t + d.requests, 0)).toBe(3);
    expect(new Set(daily.data.map((d) => d.group))).toEqual(new Set(['g', 'h', 'beta-dance']));
    const teamDaily = await json<{ data: { spend_usd: number }[] }>(gateway.admin('GET', `/admin/v1/spend/daily?team_id=${team.id}`));
    expect(Math.round(teamDaily.data.reduce((t, d) => t + d.spend_usd, 0) * 1e9)).toBe(Math.round(m.spent_usd * 1e9));
    const usage = await json<{ daily: { date: string; spend_usd: number; requests: number }[] }>(gateway.call('/v1/usage', plain.key));
    expect(Math.round(usage.daily.reduce((t, d) => t + d.spend_usd, 0) * 1e9)).toBe(Math.round(p.spent_usd * 1e9));
    expect(await errorOf(gateway.admin('GET', '/admin/v1/spend/daily?from=2026-13-01'))).toMatchObject({ status: 422, param: 'from' });
  });

  it('record every admin change with route, request id and changed fields, never a secret', async () => {
    const secrets: string[] = [];
    const created = await gateway.admin('POST', '/admin/v1/keys', { name: 'audited', models: ['*'], budget_usd: 1 });
    const key = await json<KeyObject & { key: string }>(created);
    secrets.push(key.key);
    const updated = await patch(key.id, { budget_usd: 2, name: 'audited-2' });
    const rotated = await json<{ key: string }>(gateway.admin('POST', `/admin/v1/keys/${key.id}/rotate`, { grace_seconds: 60 }));
    secrets.push(rotated.key);
    await gateway.admin('DELETE', `/admin/v1/keys/${key.id}`);
    const team = await createTeam({ name: 'audited-team' });
    await gateway.admin('PATCH', `/admin/v1/teams/${team.id}`, { budget_usd: 3 });
    await gateway.admin('DELETE', `/admin/v1/teams/${team.id}`);

    const forKey = await json<{ data: { action: string; route: string; request_id: string; changes: Record<string, unknown> }[] }>(
      gateway.admin('GET', `/admin/v1/audit?target_id=${key.id}`),
    );
    expect(forKey.data.map((e) => e.action)).toEqual(['key.revoked', 'key.rotated', 'key.updated', 'key.created']);
    expect(forKey.data.map((e) => e.route)).toEqual([
      'DELETE /admin/v1/keys/{id}',
      'POST /admin/v1/keys/{id}/rotate',
      'PATCH /admin/v1/keys/{id}',
      'POST /admin/v1/keys',
    ]);
    expect(forKey.data[2]).toMatchObject({
      request_id: updated.headers.get('x-request-id'),
      changes: { budget_usd: { from: 1, to: 2 }, name: { from: 'audited', to: 'audited-2' } },
    });
    expect(forKey.data[3]?.request_id).toBe(created.headers.get('x-request-id'));
    const forTeam = await json<{ data: { action: string; changes: Record<string, unknown> }[] }>(
      gateway.admin('GET', `/admin/v1/audit?target_id=${team.id}`),
    );
    expect(forTeam.data.map((e) => e.action)).toEqual(['team.deleted', 'team.updated', 'team.created']);
    expect(forTeam.data[1]?.changes).toEqual({ budget_usd: { from: null, to: 3 } });

    // Pages of one, newest first, and no secret anywhere in the whole list.
    const first = await json<{ data: { id: string }[]; next_after: string }>(gateway.admin('GET', '/admin/v1/audit?limit=1'));
    const second = await json<{ data: { id: string }[] }>(gateway.admin('GET', `/admin/v1/audit?limit=1&after=${first.next_after}`));
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
    const everything = await (await gateway.admin('GET', '/admin/v1/audit?limit=1000')).text();
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/[0-9a-f]{64}/);
  });
});
