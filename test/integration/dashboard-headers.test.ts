import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dashboardAssetsDir } from '@gateway/dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// The dashboard's security headers are decided by the route that matched, not by how the path
// was spelled: the router decodes `%75` to `u`, so `/%75i/` is the page and must carry them too.
// Nothing else (the /v1 API, the probes) carries any of them.

const HEADERS = ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy'] as const;

let gateway: TestGateway;
let key: string;
/** A built script, by its file name under assets/. */
let script: string;
let expected: Record<string, string | null>;

/** The four headers of an answer. */
const securityHeaders = (response: Response) => Object.fromEntries(HEADERS.map((name) => [name, response.headers.get(name)]));

/** One character of the path percent-encoded, as a browser would leave it (fetch sends it as is). */
const encodeAt = (path: string, index: number) =>
  `${path.slice(0, index)}%${path.charCodeAt(index).toString(16).toUpperCase()}${path.slice(index + 1)}`;

beforeAll(async () => {
  const built = readdirSync(join(dashboardAssetsDir, 'assets')).find((name) => /^index-.+\.js$/.test(name));
  if (!built) throw new Error('the dashboard is not built: run `npm run build`');
  script = built;
  gateway = await startTestGateway({ env: { DEEPSEEK_API_KEY: '' } });
  ({ key } = await gateway.createKey({ models: ['*'], budget_usd: 1 }));
  const page = await gateway.call('/ui/');
  expect(page.status).toBe(200);
  expected = securityHeaders(page);
});
afterAll(async () => stopTestGateway(gateway));

describe("the dashboard's security headers", () => {
  it('are the four of the policy on /ui/', () => {
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(expected).toMatchObject({ 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  });

  it('are on the page and its files however the path is spelled', async () => {
    const asset = `/ui/assets/${script}`;
    const paths = [
      '/ui/',
      '/%75i/',
      '/u%69/',
      '/%75%69/',
      '/%75%69/?x=1',
      '/ui/config.json',
      '/u%69/config.json',
      '/ui/%63onfig.json',
      asset,
      encodeAt(asset, 1),
      encodeAt(asset, 2),
      encodeAt(asset, 4),
      encodeAt(asset, asset.length - 2),
      `/%75%69/%61ssets/${script}`,
    ];
    for (const path of paths) {
      const response = await gateway.call(path);
      // Either it is served with the headers, or it is not served at all.
      expect(response.status, path).toBe(200);
      expect(securityHeaders(response), path).toEqual(expected);
      await response.arrayBuffer();
    }
  });

  it('are on the redirect, the 304, the 404 and the 405 of /ui paths, spelled either way', async () => {
    const check = async (path: string, status: number, init: RequestInit = {}) => {
      const response = await gateway.call(path, undefined, { redirect: 'manual', ...init });
      expect(response.status, `${init.method ?? 'GET'} ${path}`).toBe(status);
      expect(securityHeaders(response), `${init.method ?? 'GET'} ${path}`).toEqual(expected);
      return response;
    };
    for (const path of ['/ui', '/%75i', '/u%69?x=1']) {
      const redirect = await check(path, 301);
      expect(redirect.headers.get('location')).toBe(path.endsWith('?x=1') ? '/ui/?x=1' : '/ui/');
    }
    const etag = (await gateway.call(`/ui/assets/${script}`)).headers.get('etag') ?? '';
    await check(`/u%69/assets/${script}`, 304, { headers: { 'if-none-match': etag } });
    for (const path of ['/ui/nope', '/%75i/nope', '/u%69/assets/missing.js', '/ui/index.html/x']) {
      const missing = await check(path, 404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    for (const path of ['/ui/', '/%75i/', '/ui', `/u%69/assets/${script}`]) {
      const wrong = await check(path, 405, { method: 'POST' });
      expect(wrong.headers.get('allow')).toBe('GET, HEAD');
      expect(await wrong.json()).toEqual({
        error: {
          message: `POST is not allowed on ${path}; allowed: GET, HEAD.`,
          type: 'invalid_request_error',
          code: 'method_not_allowed',
          param: null,
        },
      });
    }
    const head = await check('/%75i/', 200, { method: 'HEAD' });
    expect(await head.text()).toBe('');
  });

  it('are on none of the API, the probes or other unknown paths', async () => {
    for (const [path, secret, status] of [
      ['/v1/models', key, 200],
      ['/v1/%6Dodels', key, 200],
      ['/v1/models', undefined, 401],
      ['/v1/nothing-here', key, 404],
      ['/health/liveness', undefined, 200],
      ['/UI/', undefined, 404],
      ['/uix/', undefined, 404],
      ['/', undefined, 404],
    ] as const) {
      const response = await gateway.call(path, secret);
      expect(response.status, path).toBe(status);
      for (const name of HEADERS) expect(response.headers.get(name), `${name} on ${path}`).toBeNull();
      await response.arrayBuffer();
    }
  });
});
