// Naive Fastify -> grpc-js -> undici chain vs the gateway, in one process, same load, CPU per request.
import Fastify from 'fastify';
import * as grpc from '@grpc/grpc-js';
import { Pool } from 'undici';
import { protos } from '@gateway/protos';
import { startGateway } from './dist/gateway.js';
import { parseConfig } from '@gateway/config';
import { createLogger } from '@gateway/logging';
import { ChatSimulator } from '@gateway/simulators';
import pino from 'pino';
const sim = new ChatSimulator({ flavor: 'openai', credential: 'c', models: ['m'], record: false });
const simUrl = await sim.listen();
// naive chain
const up = new Pool(simUrl, { connections: 256 });
const gs = new grpc.Server();
gs.addService(protos().gateway.chat.v1.ChatService.service, { CreateChatCompletion: (call, cb) => {
  up.request({ method: 'POST', path: '/v1/chat/completions', headers: { authorization: 'Bearer c', 'content-type': 'application/json' }, body: call.request.body }).then((r) => r.body.arrayBuffer()).then((b) => cb(null, { body: Buffer.from(b) }), cb);
} });
const gport = await new Promise((r) => gs.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => r(p)));
const gc = new (protos().gateway.chat.v1.ChatService)(`127.0.0.1:${gport}`, grpc.credentials.createInsecure());
const app = Fastify();
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_r, b, d) => d(null, b));
app.post('/v1/chat/completions', (req, reply) => { gc.CreateChatCompletion({ body: req.body }, (e, r) => e ? reply.code(502).send() : reply.type('application/json').send(r.body)); });
await app.listen({ port: 0, host: '127.0.0.1' });
const naiveUrl = `http://127.0.0.1:${app.server.address().port}`;
// gateway
const config = parseConfig(`groups:\n  - id: g\n    mode: chat\n    max_input_tokens: 1000\n    max_output_tokens: 100\n    price: { input_per_mtok: 1, output_per_mtok: 1 }\n    deployments: [{ provider: openai, model: m, api_base: "${simUrl}/v1", api_key_env: K }]\n`, 'x');
const gw = await startGateway({ config, logger: createLogger({ destination: pino.destination({ dest: '/dev/null', sync: false }) }), env: { K: 'c', GATEWAY_DATA_DIR: '/tmp/naive-' + Date.now(), PORT: '0', ADMIN_TOKEN: 'admintoken' } });
const key = (await (await fetch(`${gw.url}/admin/v1/keys`, { method: 'POST', headers: { authorization: 'Bearer admintoken', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'b', models: ['*'], budget_usd: 1e6 }) })).json());
const mk = (url, auth, model) => { const p = new Pool(url, { connections: 64 }); const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello in one short sentence, please.' }], max_tokens: 64 }); return async () => { const r = await p.request({ method: 'POST', path: '/v1/chat/completions', headers: { authorization: auth, 'content-type': 'application/json' }, body }); await r.body.text(); }; };
const targets = { direct: mk(simUrl, 'Bearer c', 'm'), naive: mk(naiveUrl, 'Bearer c', 'm'), gateway: mk(gw.url, `Bearer ${key.key}`, 'g') };
const measure = async (fn, ms) => { const t0 = performance.now(); const c0 = process.cpuUsage(); let n = 0; const end = t0 + ms; await Promise.all(Array.from({ length: 50 }, async () => { while (performance.now() < end) { await fn(); n++; } })); const c = process.cpuUsage(c0); return { rps: n / (ms / 1000), cpu: (c.user + c.system) / n }; };
for (const [n, f] of Object.entries(targets)) await measure(f, 1500);
for (let round = 0; round < 2; round++) for (const [n, f] of Object.entries(targets)) { const r = await measure(f, 3000); console.log(n.padEnd(8), r.rps.toFixed(0).padStart(6), 'req/s', r.cpu.toFixed(0).padStart(5), 'µs/req (whole process)'); }
process.exit(0);
