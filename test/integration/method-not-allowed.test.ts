import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// A known path asked with a method it does not take: 405 `method_not_allowed` in the OpenAI shape
// with Allow naming what the path does serve (HEAD wherever GET is, as Fastify answers it). An
// unknown path stays 404, and the admin paths are unknown while the admin API is off.

let gateway: TestGateway;
let key: string;
beforeAll(async () => {
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  ({ key } = await gateway.createKey({ models: ['*'], budget_usd: 1 }));
});
afterAll(async () => stopTestGateway(gateway));

const VIDEO = '/v1/videos/video_0123456789abcdef';
const KEY = '/admin/v1/keys/key_0000000000000000';
const TEAM = '/admin/v1/teams/team_0000000000000000';

/** Wrong methods, each with the exact Allow of its path. */
const WRONG_METHODS: readonly [method: string, path: string, allow: string][] = [
  ['PUT', '/v1/chat/completions', 'POST'],
  ['GET', '/v1/chat/completions', 'POST'],
  ['DELETE', '/v1/models', 'GET, HEAD'],
  ['POST', '/v1/models/demo-chat', 'GET, HEAD'],
  ['PATCH', '/v1/usage', 'GET, HEAD'],
  ['POST', '/v1/usage/logs', 'GET, HEAD'],
  ['PUT', '/v1/videos', 'GET, HEAD, POST'],
  ['POST', VIDEO, 'GET, HEAD, DELETE'],
  ['POST', `${VIDEO}/content`, 'GET, HEAD'],
  ['DELETE', `${VIDEO}/content`, 'GET, HEAD'],
  ['PATCH', '/admin/v1/keys', 'GET, HEAD, POST'],
  ['PUT', KEY, 'GET, HEAD, PATCH, DELETE'],
  ['GET', `${KEY}/rotate`, 'POST'],
  ['DELETE', '/admin/v1/teams', 'GET, HEAD, POST'],
  ['POST', TEAM, 'GET, HEAD, PATCH, DELETE'],
  ['POST', '/admin/v1/spend/logs', 'GET, HEAD'],
  ['DELETE', '/admin/v1/spend/daily', 'GET, HEAD'],
  ['PUT', '/admin/v1/audit', 'GET, HEAD'],
  ['POST', '/admin/v1/spend/top', 'GET, HEAD'],
  ['DELETE', '/admin/v1/overview', 'GET, HEAD'],
  ['POST', '/admin/v1/videos', 'GET, HEAD'],
  ['PUT', '/admin/v1/upstreams', 'GET, HEAD'],
  ['POST', '/health/liveness', 'GET, HEAD'],
  ['DELETE', '/health/readiness', 'GET, HEAD'],
  ['POST', '/ui/', 'GET, HEAD'],
  ['DELETE', '/ui/config.json', 'GET, HEAD'],
];

async function expectMethodNotAllowed(response: Response, allow: string, what: string): Promise<void> {
  expect(response.status, what).toBe(405);
  expect(response.headers.get('allow'), what).toBe(allow);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
  expect(await response.json(), what).toEqual({
    error: { message: expect.stringContaining(allow), type: 'invalid_request_error', code: 'method_not_allowed', param: null },
  });
}

describe('a method the path does not serve', () => {
  it('is 405 method_not_allowed with Allow listing the methods the path serves', async () => {
    for (const [method, path, allow] of WRONG_METHODS) {
      const response = await gateway.call(path, undefined, {
        method,
        headers: { authorization: `Bearer ${path.startsWith('/admin') ? ADMIN_TOKEN : key}` },
      });
      await expectMethodNotAllowed(response, allow, `${method} ${path}`);
    }
  });

  it('is decided by path and method alone, before any authentication', async () => {
    for (const [method, path, allow] of WRONG_METHODS) {
      await expectMethodNotAllowed(await gateway.call(path, undefined, { method }), allow, `${method} ${path} without a key`);
    }
    const wrongKey = await gateway.call('/v1/models', undefined, { method: 'DELETE', headers: { authorization: 'Bearer sk-wrong' } });
    await expectMethodNotAllowed(wrongKey, 'GET, HEAD', 'DELETE /v1/models with a wrong key');
  });

  it('reads the path as the router does: query, trailing slash, percent-encoding, a long id', async () => {
    const allowOf = async (path: string, method = 'PUT') => {
      const response = await gateway.call(path, undefined, { method });
      return [response.status, response.headers.get('allow')];
    };
    expect(await allowOf('/v1/models?limit=5')).toEqual([405, 'GET, HEAD']);
    expect(await allowOf('/v1/models/')).toEqual([405, 'GET, HEAD']);
    expect(await allowOf('/v1/%6Dodels')).toEqual([405, 'GET, HEAD']);
    expect(await allowOf('/v1/models/demo%2Fchat')).toEqual([405, 'GET, HEAD']);
    expect(await allowOf('/admin/v1/keys/?x=1', 'DELETE')).toEqual([405, 'GET, HEAD, POST']);
    // No id is longer than the router's 100 characters: such a path is unknown whatever the method.
    expect(await allowOf(`/v1/videos/${'a'.repeat(100)}`)).toEqual([405, 'GET, HEAD, DELETE']);
    expect(await allowOf(`/v1/videos/${'a'.repeat(101)}`)).toEqual([404, null]);
    expect(await allowOf(`/v1/videos/${'a'.repeat(101)}`, 'GET')).toEqual([404, null]);
    // Paths are case-sensitive, and a segment more or less is another path.
    expect(await allowOf('/V1/models')).toEqual([404, null]);
    expect(await allowOf('/v1/models/demo-chat/extra')).toEqual([404, null]);
    expect(await allowOf('/v1/videos/x/content/more')).toEqual([404, null]);
  });

  it('answers OPTIONS with 405 too: no route serves it, and Allow says what does', async () => {
    await expectMethodNotAllowed(await gateway.call('/v1/chat/completions', undefined, { method: 'OPTIONS' }), 'POST', 'OPTIONS chat');
    await expectMethodNotAllowed(await gateway.call(KEY, undefined, { method: 'OPTIONS' }), 'GET, HEAD, PATCH, DELETE', 'OPTIONS key');
  });
});

describe('what is unchanged', () => {
  it('keeps 404 not_found for unknown paths, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['PUT', '/v1/nothing-here'],
      ['POST', '/v1/completions'],
      ['DELETE', '/v1'],
      ['OPTIONS', '/'],
      ['PATCH', '/admin/v1'],
      ['GET', '/ui/nope'],
      ['PUT', '/ui/assets/missing.js'],
    ] as const) {
      const response = await gateway.call(`${path}?x=1`, key, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('allow'), `${method} ${path}`).toBeNull();
      expect(await response.json(), `${method} ${path}`).toEqual({
        error: { message: `Unknown route: ${method} ${path}`, type: 'invalid_request_error', code: 'not_found', param: null },
      });
    }
  });

  it('serves the right method as before, and HEAD wherever GET is', async () => {
    const models = await gateway.call('/v1/models', key);
    expect(models.status).toBe(200);
    expect(models.headers.get('allow')).toBeNull();
    const chat = await gateway.call('/v1/chat/completions', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo-chat', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(200);
    // Without a key the route still asks for one: the right method is authenticated as always.
    expect((await gateway.call('/v1/models', undefined, { method: 'HEAD' })).status).toBe(401);

    // HEAD, listed in Allow, answers as GET does, with no body.
    for (const [path, secret, status] of [
      ['/v1/models', key, 200],
      ['/v1/models/demo-chat', key, 200],
      ['/v1/usage', key, 200],
      ['/v1/videos', key, 200],
      [VIDEO, key, 404],
      [`${VIDEO}/content`, key, 404],
      ['/admin/v1/keys', ADMIN_TOKEN, 200],
      [KEY, ADMIN_TOKEN, 404],
      ['/admin/v1/audit', ADMIN_TOKEN, 200],
      ['/health/liveness', undefined, 200],
      ['/ui/config.json', undefined, 200],
    ] as const) {
      const get = await gateway.call(path, secret);
      const head = await gateway.call(path, secret, { method: 'HEAD' });
      expect([head.status, await head.text()], `HEAD ${path}`).toEqual([status, '']);
      expect(get.status, `GET ${path}`).toBe(status);
    }
  });

  it('serves HEAD on a finished clip: its headers, no body', { timeout: 60_000 }, async () => {
    const created = await gateway.call('/v1/videos', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'demo-video', prompt: 'A paper boat', seconds: 4 }),
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    const status = async () => ((await (await gateway.call(`/v1/videos/${id}`, key)).json()) as { status: string }).status;
    await eventually(async () => {
      if ((await status()) === 'completed') return true;
      await new Promise((resolve) => setTimeout(resolve, 250));
      return false;
    }, 45_000);
    const head = await gateway.call(`/v1/videos/${id}/content`, key, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('video/mp4');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await head.text()).toBe('');
  });
});

describe('with the admin API off', () => {
  it('keeps every /admin path 404 whatever the method, so it does not tell the routes exist', async () => {
    const closed = await startTestGateway({ env: { ADMIN_TOKEN: '', DEEPSEEK_API_KEY: '' } });
    try {
      for (const [method, path] of [
        ['GET', '/admin/v1/keys'],
        ['PATCH', '/admin/v1/keys'],
        ['PUT', KEY],
        ['GET', `${KEY}/rotate`],
        ['OPTIONS', '/admin/v1/teams'],
      ] as const) {
        const response = await closed.call(path, undefined, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get('allow'), `${method} ${path}`).toBeNull();
        expect(((await response.json()) as { error: { code: string } }).error.code, `${method} ${path}`).toBe('not_found');
      }
      // The /v1 routes are there all the same.
      const response = await closed.call('/v1/models', undefined, { method: 'DELETE' });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      // So is the dashboard's page, which then offers only the key sign-in.
      const page = await closed.call('/ui/', undefined, { method: 'POST' });
      expect([page.status, page.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    } finally {
      await stopTestGateway(closed);
    }
  });
});
