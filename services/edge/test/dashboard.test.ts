import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseConfig } from '@gateway/config';
import { silentLogger } from '@gateway/logging';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServerOptions } from '../src/app.js';
import { errorHandling } from '../src/errors.js';
import { DASHBOARD_CSP, dashboardRoutes } from '../src/routes/dashboard.js';

// The dashboard's serving, on a build made up here: redirect, index, hashed assets with their
// cache headers, ETag and gzip, the security headers on every /ui answer (errors included), 405
// and 404 as elsewhere, and the shaped 503 when nothing is built.

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
let dir: string;
let app: FastifyInstance;

async function edge(assetsDir: string, admin: boolean): Promise<FastifyInstance> {
  const instance = Fastify(edgeServerOptions(parseConfig('groups: []', 'dashboard-test'), silentLogger()));
  await instance.register(errorHandling);
  await instance.register(dashboardRoutes, { admin, assetsDir });
  instance.get('/v1/models', async () => ({ object: 'list', data: [] }));
  await instance.ready();
  return instance;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dashboard-test-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><script type="module" src="/ui/assets/index-AbCd1234.js"></script>');
  await writeFile(join(dir, 'assets', 'index-AbCd1234.js'), SCRIPT);
  await writeFile(join(dir, 'assets', 'index-EfGh5678.css'), 'body{margin:0}');
  await writeFile(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
  // Not a name Vite makes: the router would read it as a parameter; left out.
  await writeFile(join(dir, 'assets', ':id.js'), 'bad');
  app = await edge(dir, true);
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Record<string, unknown>, what: string): void {
  expect(headers['content-security-policy'], what).toBe(DASHBOARD_CSP);
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['x-frame-options'], what).toBe('DENY');
}

describe('the dashboard routes', () => {
  it('sends /ui to /ui/, keeping the query', async () => {
    for (const [url, location] of [
      ['/ui', '/ui/'],
      ['/ui?x=1', '/ui/?x=1'],
    ] as const) {
      const response = await app.inject({ url });
      expect([response.statusCode, response.headers.location], url).toEqual([301, location]);
      expectSecurityHeaders(response.headers, url);
    }
  });

  it('serves index.html at /ui/, never cached without a check, with the strict policy', async () => {
    const response = await app.inject({ url: '/ui/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.body).toContain('/ui/assets/index-AbCd1234.js');
    expectSecurityHeaders(response.headers, '/ui/');
    expect(DASHBOARD_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it('serves hashed assets as immutable, others as no-cache, with their types', async () => {
    const script = await app.inject({ url: '/ui/assets/index-AbCd1234.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body).toBe(SCRIPT);
    const style = await app.inject({ url: '/ui/assets/index-EfGh5678.css' });
    expect([style.statusCode, style.headers['content-type'], style.body]).toEqual([200, 'text/css; charset=utf-8', 'body{margin:0}']);
    const robots = await app.inject({ url: '/ui/robots.txt' });
    expect([robots.statusCode, robots.headers['cache-control'], robots.headers['content-type']]).toEqual([
      200,
      'no-cache',
      'text/plain; charset=utf-8',
    ]);
    expectSecurityHeaders(script.headers, 'script');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await app.inject({ url: '/ui/assets/index-AbCd1234.js' });
    const etag = String(first.headers.etag);
    for (const match of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await app.inject({ url: '/ui/assets/index-AbCd1234.js', headers: { 'if-none-match': match } });
      expect([again.statusCode, again.body], match).toEqual([304, '']);
    }
    const changed = await app.inject({ url: '/ui/assets/index-AbCd1234.js', headers: { 'if-none-match': '"other"' } });
    expect(changed.statusCode).toBe(200);
  });

  it('sends text gzipped to a client that takes it, and plain to one that refuses it', async () => {
    const zipped = await app.inject({ url: '/ui/assets/index-AbCd1234.js', headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(SCRIPT);
    for (const refused of ['gzip;q=0', 'identity', 'br']) {
      const plain = await app.inject({ url: '/ui/assets/index-AbCd1234.js', headers: { 'accept-encoding': refused } });
      expect([plain.headers['content-encoding'], plain.body], refused).toEqual([undefined, SCRIPT]);
    }
    // Small files are sent as they are.
    const small = await app.inject({ url: '/ui/assets/index-EfGh5678.css', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('says whether the admin sign-in is offered', async () => {
    const on = await app.inject({ url: '/ui/config.json' });
    expect([on.statusCode, on.json(), on.headers['cache-control']]).toEqual([200, { admin: true }, 'no-store']);
    const off = await edge(dir, false);
    try {
      expect((await off.inject({ url: '/ui/config.json' })).json()).toEqual({ admin: false });
    } finally {
      await off.close();
    }
  });

  it('answers HEAD as GET without a body, and other methods with 405 naming GET and HEAD', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/ui/assets/index-AbCd1234.js' });
    expect([head.statusCode, head.body]).toEqual([200, '']);
    for (const [method, url] of [
      ['POST', '/ui/'],
      ['DELETE', '/ui/config.json'],
      ['PUT', '/ui/assets/index-AbCd1234.js'],
    ] as const) {
      const response = await app.inject({ method, url });
      expect([response.statusCode, response.headers.allow, response.json().error.code], `${method} ${url}`).toEqual([
        405,
        'GET, HEAD',
        'method_not_allowed',
      ]);
      expectSecurityHeaders(response.headers, `${method} ${url}`);
    }
  });

  it('answers unknown /ui paths with the shaped 404 and the policy; other paths are untouched', async () => {
    for (const url of ['/ui/nope', '/ui/assets/missing.js', '/ui/assets/:id.js', '/ui/index.html/x']) {
      const response = await app.inject({ url });
      expect([response.statusCode, response.json().error.code], url).toEqual([404, 'not_found']);
      expectSecurityHeaders(response.headers, url);
    }
    for (const url of ['/v1/models', '/uix', '/u']) {
      expect((await app.inject({ url })).headers['content-security-policy'], url).toBeUndefined();
    }
  });

  it('answers 503 in the OpenAI shape, saying to build, when nothing is built', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'dashboard-empty-'));
    const unbuilt = await edge(empty, true);
    try {
      const response = await unbuilt.inject({ url: '/ui/' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: { message: expect.stringContaining('npm run build'), type: 'service_unavailable', code: 'service_unavailable', param: null },
      });
      expectSecurityHeaders(response.headers, 'unbuilt');
      // The page's config still answers; no asset exists.
      expect((await unbuilt.inject({ url: '/ui/config.json' })).statusCode).toBe(200);
      expect((await unbuilt.inject({ url: '/ui/assets/index-AbCd1234.js' })).statusCode).toBe(404);
    } finally {
      await unbuilt.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});
