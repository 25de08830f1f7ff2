// The yardstick: a bare Fastify + undici one-hop proxy, with nothing a gateway needs (no auth,
// no validation, no metering). /fast/... and /spaced/... go to the two upstreams.
// Usage: node yardstick.mjs FAST_URL SPACED_URL; prints {"url": ...}.
import Fastify from 'fastify';
import { Pool } from 'undici';

const [fastUrl = '', spacedUrl = ''] = process.argv.slice(2);
/** @type {Record<string, Pool>} */
const pools = { fast: new Pool(fastUrl, { connections: 256 }), spaced: new Pool(spacedUrl, { connections: 256 }) };
const app = Fastify({ logger: false });
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

for (const name of Object.keys(pools)) {
  app.post(`/${name}/v1/chat/completions`, async (request, reply) => {
    const upstream = await /** @type {Pool} */ (pools[name]).request({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: 'Bearer bench-credential' },
      body: /** @type {Buffer} */ (request.body),
    });
    reply.code(upstream.statusCode).header('content-type', upstream.headers['content-type']);
    return reply.send(upstream.body);
  });
}
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (app.server.address()).port}` })}\n`,
);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
