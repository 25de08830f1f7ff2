// The naive chain the gateway is measured against: Fastify → grpc-js → undici with no features
// (no auth, validation, routing, metering), the front and the gRPC service in two processes.
// Usage: node naive-chain.mjs FAST_URL SPACED_URL; prints {"url": ...}.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { protos } from '@gateway/protos';

const [fastUrl = '', spacedUrl = '', role] = process.argv.slice(2);
/** @typedef {{ group: string, body: Buffer }} ChatRequest */
/** @typedef {import('node:net').AddressInfo} AddressInfo */

if (role === 'service') {
  const { Pool } = await import('undici');
  /** @type {Record<string, import('undici').Pool>} */
  const pools = { fast: new Pool(fastUrl, { connections: 256 }), spaced: new Pool(spacedUrl, { connections: 256 }) };
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench-credential' };
  const server = new grpc.Server();
  server.addService(protos().gateway.chat.v1.ChatService.service, {
    CreateChatCompletion: (
      /** @type {grpc.ServerUnaryCall<ChatRequest, unknown>} */ call,
      /** @type {grpc.sendUnaryData<{ body: Buffer }>} */ callback,
    ) => {
      /** @type {import('undici').Pool} */ (pools[call.request.group])
        .request({ method: 'POST', path: '/v1/chat/completions', headers, body: call.request.body })
        .then((r) => r.body.arrayBuffer())
        .then(
          (b) => callback(null, { body: Buffer.from(b) }),
          (/** @type {Error} */ e) => callback(e),
        );
    },
    StreamChatCompletion: (/** @type {grpc.ServerWritableStream<ChatRequest, unknown>} */ call) => {
      /** @type {import('undici').Pool} */ (pools[call.request.group])
        .request({ method: 'POST', path: '/v1/chat/completions', headers, body: call.request.body })
        .then(
          async (r) => {
            for await (const chunk of r.body) call.write({ chunks: [chunk] });
            call.end();
          },
          (/** @type {Error} */ e) => call.emit('error', e),
        );
    },
  });
  const port = await new Promise((/** @type {(port: number) => void} */ resolve) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (_error, p) => resolve(p)),
  );
  process.send?.({ port });
} else {
  const child = fork(fileURLToPath(import.meta.url), [fastUrl, spacedUrl, 'service']);
  const { port } = /** @type {{ port: number }} */ (await new Promise((resolve) => child.once('message', resolve)));
  const { default: Fastify } = await import('fastify');
  const client = new (protos().gateway.chat.v1.ChatService)(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const app = Fastify({ logger: false });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  for (const group of ['fast', 'spaced']) {
    app.post(`/${group}/v1/chat/completions`, (request, reply) => {
      const body = /** @type {Buffer} */ (request.body);
      if (!body.includes('"stream":true')) {
        client.CreateChatCompletion({ group, body }, (e, r) => {
          if (e || !r) reply.code(502).send();
          else reply.type('application/json').send(r.body);
        });
        return;
      }
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      const call = client.StreamChatCompletion({ group, body });
      call.on('data', (/** @type {{ chunks: Buffer[] }} */ m) => {
        for (const c of m.chunks) reply.raw.write(c);
      });
      call.on('end', () => reply.raw.end());
      call.on('error', () => reply.raw.end());
    });
  }
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${/** @type {AddressInfo} */ (app.server.address()).port}`, servicePid: child.pid })}\n`,
  );
  process.on('SIGTERM', () => {
    child.kill('SIGTERM');
    process.exit(0);
  });
}
