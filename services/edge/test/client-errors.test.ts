import { connect } from 'node:net';
import { parseConfig } from '@gateway/config';
import { silentLogger } from '@gateway/logging';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServerOptions } from '../src/app.js';

// Slow clients: headers or a body that never finish arriving. Node's HTTP server gives up on
// them (headersTimeout and requestTimeout; 30 s and 120 s at the edge, a fraction of a second here) and the edge's
// clientError handler answers in the OpenAI shape and closes, not with a bare 408.

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const options = edgeServerOptions(parseConfig('groups: []', 'client-errors-test'), silentLogger());
  app = Fastify({
    ...options,
    requestTimeout: 400,
    // As the edge gives them (at construction), shorter; and checked for every 100 ms.
    ...({
      http: { requireHostHeader: false, requestTimeout: 400, headersTimeout: 300, connectionsCheckingInterval: 100 },
    } as Record<string, unknown>),
  });
  app.post('/v1/chat/completions', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app.close();
});

/** Writes `raw`, never the rest, and returns everything the server sent until it closed. */
function sendAndWait(raw: string): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('close', () => resolve(data));
    socket.setTimeout(5000, () => socket.destroy());
  });
}

function answerOf(raw: string): { status: number; body: { error: { code: string; type: string; message: string; param: null } } } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as ReturnType<typeof answerOf>['body'] };
}

describe('slow clients', () => {
  it('headers that never finish: a shaped 408, then the connection closes', async () => {
    const answer = answerOf(await sendAndWait('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({
      error: { code: 'request_timeout', type: 'invalid_request_error', message: expect.any(String), param: null },
    });
  });

  it('a body that never finishes: a shaped 408, then the connection closes', async () => {
    const raw = await sendAndWait(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":',
    );
    const answer = answerOf(raw);
    expect(answer.status).toBe(408);
    expect(answer.body.error.code).toBe('request_timeout');
  });
});
