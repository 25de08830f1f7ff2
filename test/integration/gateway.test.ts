import { InProcessBus } from '@gateway/bus';
import { spendSubject, type SpendEvent } from '@gateway/contracts';
import { startEdge } from '@gateway/edge';
import { checkHealth, createHealthClient } from '@gateway/grpc';
import { silentLogger } from '@gateway/logging';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, eventually, folderText, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The whole gateway, as `npm start` runs it, driven over HTTP. Nothing inside it is replaced.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await stopTestGateway(gateway);
});

const authError = { error: { type: 'auth_error', code: 'invalid_api_key', param: null, message: expect.any(String) } };

describe('health', () => {
  it('is live and ready with every check named', async () => {
    expect(await (await gateway.call('/health/liveness')).json()).toEqual({ status: 'ok' });
    const ready = await gateway.call('/health/readiness');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { bus: 'up', accounting: 'up', chat: 'up', video: 'up' }, down: [] });
  });

  it('serves each service in process to the callers inside it, and on its loopback port to anything outside', async () => {
    for (const service of [gateway.accounting, gateway.chat, gateway.video]) {
      expect(service.inProcessAddress).toBe(`inproc:${service.name}@${service.address}`);
      for (const address of [service.inProcessAddress ?? '', service.address]) {
        const health = createHealthClient(address);
        try {
          expect(await checkHealth(health), address).toBe('SERVING');
        } finally {
          health.close();
        }
      }
    }
  });
});

describe('authentication', () => {
  it("answers 401 with the specification's error object for a missing, malformed, unknown or revoked key", async () => {
    const { id, key } = await gateway.createKey({ models: ['*'] });
    expect((await gateway.call('/v1/models', key)).status).toBe(200);
    const cases: [string, Record<string, string>][] = [
      ['missing', {}],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['wrong scheme', { authorization: `Basic ${key}` }],
      ['malformed', { authorization: 'Bearer not-a-key' }],
      ['unknown', { authorization: `Bearer sk-${'A'.repeat(32)}` }],
      ['admin token as key', { authorization: `Bearer ${ADMIN_TOKEN}` }],
    ];
    for (const [name, headers] of cases) {
      const response = await gateway.call('/v1/models', undefined, { headers });
      expect(response.status, name).toBe(401);
      expect(await response.json(), name).toEqual(authError);
    }
    expect((await gateway.admin('DELETE', `/admin/v1/keys/${id}`)).status).toBe(200);
    const revoked = await gateway.call('/v1/models', key);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual(authError);
    expect((await gateway.call('/v1/usage', key)).status).toBe(401);
  });

  it('stops a revoked key within 2 s on an edge that never hears the key-change event', async () => {
    // A second edge on its own bus: it only has its cache expiry to go by.
    const lonelyBus = new InProcessBus();
    const edge = await startEdge({
      config: (await import('@gateway/config')).parseConfig('groups: []\nserver: { key_cache_ttl_ms: 2000 }\n', 'test'),
      bus: lonelyBus,
      logger: silentLogger(),
      adminToken: undefined,
      host: '127.0.0.1',
      port: 0,
      services: { accounting: gateway.accounting.address, chat: gateway.chat.address, video: gateway.video.address },
    });
    try {
      const { id, key } = await gateway.createKey({ models: ['*'] });
      const url = `http://127.0.0.1:${edge.port}/v1/usage`;
      const headers = { authorization: `Bearer ${key}` };
      expect((await fetch(url, { headers })).status).toBe(200);
      await gateway.admin('DELETE', `/admin/v1/keys/${id}`);
      const revokedAt = Date.now();
      await eventually(async () => (await fetch(url, { headers })).status === 401, 2500);
      expect(Date.now() - revokedAt).toBeLessThanOrEqual(2100);
    } finally {
      await edge.close();
      await lonelyBus.close();
    }
  });

  it("keeps a caller's request id and gives one otherwise", async () => {
    const given = await gateway.call('/health/liveness', undefined, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const fresh = await gateway.call('/health/liveness', undefined, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /v1/models', () => {
  it('lists exactly the served groups the key may call', async () => {
    const ids = async (models: string[]) => {
      const { key } = await gateway.createKey({ models });
      const body = (await (await gateway.call('/v1/models', key)).json()) as { object: string; data: { id: string }[] };
      expect(body.object).toBe('list');
      return body.data.map((m) => m.id);
    };
    // DEEPSEEK_API_KEY is set; MINIMAX_API_KEY and ARK_API_KEY are not; the demo groups need nothing.
    expect(await ids(['*'])).toEqual(['demo-chat', 'demo-video', 'gamma-flash', 'gamma-v4-pro']);
    expect(await ids(['flash', 'beta-dance'])).toEqual(['gamma-flash']);
    expect(await ids(['alpha-h3', 'beta-dance'])).toEqual([]);
  });

  it('describes each group as the specification lists it', async () => {
    const { key } = await gateway.createKey({ models: ['gamma-flash'] });
    const body = (await (await gateway.call('/v1/models', key)).json()) as { data: unknown[] };
    expect(body.data).toEqual([
      {
        id: 'gamma-flash',
        object: 'model',
        created: 0,
        owned_by: 'gateway',
        mode: 'chat',
        max_input_tokens: 131072,
        max_output_tokens: 8192,
      },
    ]);
  });

  it('retrieves one model by id or alias for the openai SDK, and nothing the key cannot call', async () => {
    const { key } = await gateway.createKey({ models: ['gamma-flash', 'beta-dance'] });
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    expect(await client.models.retrieve('gamma-flash')).toMatchObject({
      id: 'gamma-flash',
      object: 'model',
      mode: 'chat',
      max_output_tokens: 8192,
    });
    expect(await client.models.retrieve('flash')).toMatchObject({ id: 'flash', object: 'model', max_input_tokens: 131072 });
    // Not the key's, not served here (no ARK_API_KEY), or unknown: the same 404.
    for (const model of ['gamma-v4-pro', 'beta-dance', 'nope']) {
      const error = await client.models.retrieve(model).catch((e: unknown) => e);
      expect(error, model).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('not_found');
    }
  });

  it('includes video groups once their credential is set', async () => {
    const withVideo = await startTestGateway({ env: { ARK_API_KEY: 'ark-credential', MINIMAX_API_KEY: 'mm-credential' } });
    try {
      const { key } = await withVideo.createKey({ models: ['*'] });
      const body = (await (await withVideo.call('/v1/models', key)).json()) as {
        data: { id: string; mode: string; max_input_tokens: number | null; max_output_tokens: number | null }[];
      };
      expect(body.data.map((m) => [m.id, m.mode])).toEqual([
        ['alpha-h3', 'video'],
        ['alpha-h3-max', 'video'],
        ['beta-dance', 'video'],
        ['demo-chat', 'chat'],
        ['demo-video', 'video'],
        ['gamma-flash', 'chat'],
        ['gamma-v4-pro', 'chat'],
      ]);
      // Integers for every group: a video group's from its providers when the config sets none.
      for (const model of body.data) {
        expect(Number.isInteger(model.max_input_tokens), model.id).toBe(true);
        expect(Number.isInteger(model.max_output_tokens), model.id).toBe(true);
      }
      const beta = body.data.find((m) => m.id === 'beta-dance');
      // The prompt limit in characters; the largest Seedance frame (1080p 21:9, 2206×946) for 30 s at 24 fps.
      expect(beta).toMatchObject({ max_input_tokens: 5000, max_output_tokens: Math.ceil((2206 * 946 * (30 * 24 + 1)) / 1024) });
      expect(body.data.find((m) => m.id === 'alpha-h3')?.max_input_tokens).toBe(7000);
    } finally {
      await stopTestGateway(withVideo);
    }
  });
});

describe('GET /v1/usage', () => {
  it('reports budget, spend, remaining and access, spend applied once per event', async () => {
    const { id, key } = await gateway.createKey({ models: ['flash', 'alpha-h3'], budget_usd: 25, rpm: 60 });
    const event: SpendEvent = {
      id: 'chatcmpl-usage-1',
      kind: 'chat',
      key_id: id,
      group: 'gamma-flash',
      cost_nano_usd: 1_234_567_891,
      occurred_at: Date.now(),
    };
    await gateway.bus.publish(spendSubject('chat'), event.id, event);
    await gateway.bus.publish(spendSubject('chat'), event.id, event);
    let body: Record<string, unknown> = {};
    await eventually(async () => {
      body = (await (await gateway.call('/v1/usage', key)).json()) as Record<string, unknown>;
      return (body.budget as { spent_usd: number }).spent_usd > 0;
    });
    expect(body).toMatchObject({
      object: 'usage',
      key: { id, name: 'test', hint: `sk-…${key.slice(-4)}` },
      budget: { limit_usd: 25, spent_usd: 1.234567891, reserved_usd: 0, remaining_usd: 23.765432109 },
      models: { allowed: ['alpha-h3', 'gamma-flash'], available: ['gamma-flash'] },
      by_model: [{ model: 'gamma-flash', spent_usd: 1.234567891, requests: 1 }],
      period: { end: null },
      rate_limits: { rpm: 60, tpm: null },
    });
    expect(JSON.stringify(body)).not.toContain(key);
  });
});

describe('admin API', () => {
  it('refuses a missing or wrong token without saying more', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${ADMIN_TOKEN}x` },
      { authorization: ADMIN_TOKEN },
    ] as Record<string, string>[]) {
      const response = await gateway.call('/admin/v1/keys', undefined, { headers });
      expect(response.status).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_admin_token');
    }
  });

  it('is not reachable by spoofing the Host header', async () => {
    const response = await gateway.call('/admin/v1/keys', undefined, { headers: { host: 'localhost', 'x-forwarded-host': 'localhost' } });
    expect(response.status).toBe(401);
  });

  it('creates, lists, gets and revokes keys, showing the secret only once', async () => {
    const created = await gateway.admin('POST', '/admin/v1/keys', { name: 'ops', models: ['flash'], budget_usd: 12.5, rpm: 30 });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown> & { id: string; key: string };
    expect(body).toMatchObject({
      object: 'api_key',
      name: 'ops',
      models: ['gamma-flash'],
      budget_usd: 12.5,
      spent_usd: 0,
      rpm: 30,
      revoked_at: null,
    });
    expect(body.key).toMatch(/^sk-/);

    const one = (await (await gateway.admin('GET', `/admin/v1/keys/${body.id}`)).json()) as Record<string, unknown>;
    expect(one).toMatchObject({ id: body.id, name: 'ops', spent_usd: 0 });
    expect(one).not.toHaveProperty('key');

    const listed: { id: string }[] = [];
    let after: string | null = null;
    do {
      const page = (await (await gateway.admin('GET', `/admin/v1/keys?limit=2${after ? `&after=${after}` : ''}`)).json()) as {
        data: { id: string }[];
        next_after: string | null;
        has_more: boolean;
      };
      listed.push(...page.data);
      after = page.next_after;
      expect(page.has_more).toBe(after !== null);
    } while (after);
    expect(listed.map((k) => k.id)).toContain(body.id);
    expect(JSON.stringify(listed)).not.toContain(body.key);

    const revoked = (await (await gateway.admin('DELETE', `/admin/v1/keys/${body.id}`)).json()) as { revoked_at: number | null };
    expect(revoked.revoked_at).toEqual(expect.any(Number));
    expect((await gateway.admin('GET', '/admin/v1/keys/key_missing')).status).toBe(404);
  });

  it('validates the create body with 422 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ models: ['*'], budget_usd: 1 }, 'name'],
      [{ name: 'x', budget_usd: 1 }, 'models'],
      [{ name: 'x', models: [], budget_usd: 1 }, 'models'],
      [{ name: 'x', models: ['no-such-group'], budget_usd: 1 }, 'models'],
      [{ name: 'x', models: ['*'], budget_usd: -1 }, 'budget_usd'],
      [{ name: 'x', models: ['*'], budget_usd: 'ten' }, 'budget_usd'],
      [{ name: 'x', models: ['*'], budget_usd: 1, rpm: 0 }, 'rpm'],
      [{ name: 'x', models: ['*'], budget_usd: 1, extra: true }, 'extra'],
    ];
    for (const [body, param] of cases) {
      const response = await gateway.admin('POST', '/admin/v1/keys', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(((await response.json()) as { error: { param: string; type: string } }).error, JSON.stringify(body)).toMatchObject({
        param,
        type: 'invalid_request_error',
      });
    }
  });

  it('is absent when ADMIN_TOKEN is unset', async () => {
    const closed = await startTestGateway({ env: { ADMIN_TOKEN: '' } });
    try {
      const response = await closed.admin('GET', '/admin/v1/keys');
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    } finally {
      await stopTestGateway(closed);
    }
  });
});

describe('bad input', () => {
  it('answers unknown routes with 404 in the OpenAI shape', async () => {
    const response = await gateway.call('/v1/nothing-here?x=1');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'Unknown route: GET /v1/nothing-here', type: 'invalid_request_error', code: 'not_found', param: null },
    });
  });

  it('answers unparseable JSON with 400, a wrong content type with 415 and an oversized body with 413', async () => {
    const post = (body: string, type = 'application/json') =>
      gateway.call('/admin/v1/keys', ADMIN_TOKEN, { method: 'POST', body, headers: { 'content-type': type } });
    const broken = await post('{"name": ');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    expect((await post('name=x', 'text/plain')).status).toBe(415);
    const huge = await post(JSON.stringify({ name: 'x'.repeat(17 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
  });
});

describe('secrets', () => {
  it('never writes a key or the admin token to the logs or the data folder', async () => {
    const { key } = await gateway.createKey({ models: ['*'] });
    await gateway.call('/v1/models', key);
    await gateway.call('/v1/models', `${key}x`);
    const logs = gateway.logs.join('');
    expect(logs).toContain('key created');
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(key.slice(3, 20));
    expect(logs).not.toContain(ADMIN_TOKEN);
    expect(await folderText(gateway.dataDir)).not.toContain(key.slice(3));
  });
});
