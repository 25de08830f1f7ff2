import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Pool, undiciErrors } from '@gateway/upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The pool is undici's, loaded without undici's entry point: these check that what the entry
// point would have added (the request API on Dispatcher) is there, and that nothing else loads.

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/silent') return; // never answers: the headers timeout's case
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: request.url, method: request.method }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the upstream HTTP pool', () => {
  it('makes requests over keep-alive connections, with the request API', async () => {
    const pool = new Pool(origin, { connections: 2 });
    try {
      for (const path of ['/a', '/b']) {
        const response = await pool.request({ method: 'POST', path, body: '{}' });
        expect(response.statusCode).toBe(200);
        expect(await response.body.json()).toEqual({ path, method: 'POST' });
      }
    } finally {
      await pool.close();
    }
  });

  it("throws undici's own error classes", async () => {
    const pool = new Pool(origin, { connections: 1 });
    try {
      const error = await pool.request({ method: 'GET', path: '/silent', headersTimeout: 50 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(undiciErrors.HeadersTimeoutError);
    } finally {
      await pool.destroy();
    }
  });

  it("loads neither undici's entry point nor Node's bundled undici (a fresh process, the built package)", () => {
    const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      await import(${JSON.stringify(entry)});
      const cache = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({
        entryPoint: cache.some((file) => file.endsWith('/undici/index.js')),
        bundled: process.moduleLoadList.some((name) => name.includes('deps/undici')),
        pool: cache.some((file) => file.endsWith('/undici/lib/dispatcher/pool.js')),
      }));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ entryPoint: false, bundled: false, pool: true });
  });
});
