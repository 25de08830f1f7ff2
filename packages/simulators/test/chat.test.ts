import { request } from 'node:http';
import { ChatSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The chat simulator's faults as a client sees them on the wire, without the gateway between.

const sim = new ChatSimulator({ flavor: 'openai', credential: 'k', models: ['m'] });
let url: string;

beforeAll(async () => {
  url = await sim.listen();
});
afterAll(() => sim.close());

interface Answer {
  status?: number;
  retryAfter?: string;
  body: string;
  /** The socket error's code when the exchange failed, e.g. ECONNRESET. */
  errorCode?: string;
  /** Bytes received before the failure. */
  received: number;
}

/** One call over a fresh connection, recording what arrived before any failure. */
function call(body: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve) => {
    let received = 0;
    const parts: Buffer[] = [];
    const req = request(
      `${url}/v1/chat/completions`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: 'Bearer k' } },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          parts.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            retryAfter: res.headers['retry-after'],
            body: Buffer.concat(parts).toString('utf8'),
            received,
          }),
        );
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: res.statusCode, body: Buffer.concat(parts).toString('utf8'), errorCode: error.code, received }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ body: '', errorCode: error.code, received }));
    req.end(JSON.stringify(body));
  });
}

const hello = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };

describe('chat simulator faults', () => {
  it('resets the connection without a byte, and serves the next request as before', async () => {
    sim.fail({ reset: true });
    const reset = await call(hello);
    expect(reset).toEqual({ body: '', errorCode: 'ECONNRESET', received: 0 });
    const next = await call(hello);
    expect(next.status).toBe(200);
  });

  it('resets only after delayMs when both are set', async () => {
    sim.fail({ reset: true, delayMs: 200 });
    const started = performance.now();
    const reset = await call(hello);
    expect(reset.errorCode).toBe('ECONNRESET');
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('still answers a status fault with an OpenAI-shaped error and Retry-After', async () => {
    sim.fail({ status: 429, retryAfter: 3 });
    const limited = await call(hello);
    expect(limited.status).toBe(429);
    expect(limited.retryAfter).toBe('3');
    expect(JSON.parse(limited.body)).toEqual({
      error: { message: 'Rate limit reached.', type: 'rate_limit_error', param: null, code: null },
    });
  });
});
