#!/usr/bin/env node
// grpc-js channel and server options, one at a time: a unary call of a chat request's size
// (about 300 bytes in, 600 out, with the gateway's metadata) from a client process to a server
// process, 50 calls in flight, for each variant of the gateway's options
// (packages/grpc/src/options.ts). Prints calls per second and the CPU both processes spend per
// call, the baseline measured again between variants (the machine drifts).
// Usage: npm run build && node bench/grpc-options.mjs   (GRPC_SECONDS=4, GRPC_ROUNDS=2)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { channelOptions } from '@gateway/grpc';
import { cpuSeconds } from './lib/procs.mjs';

const SECONDS = Number(process.env.GRPC_SECONDS ?? 4);
const ROUNDS = Number(process.env.GRPC_ROUNDS ?? 2);
const IN_FLIGHT = 50;
const METHOD = '/bench.Echo/Call';
const identity = { path: METHOD, requestStream: false, responseStream: false };
const definition = {
  Call: {
    ...identity,
    requestSerialize: (b) => b,
    requestDeserialize: (b) => b,
    responseSerialize: (b) => b,
    responseDeserialize: (b) => b,
  },
};

/** Each variant: what it changes in the client's channel options and in the server's. */
const VARIANTS = [
  { name: 'the gateway’s options (baseline)', client: {}, server: {} },
  { name: 'channelz on', client: { 'grpc.enable_channelz': 1 }, server: { 'grpc.enable_channelz': 1 } },
  { name: 'retries on (grpc-js’s retry layer)', client: { 'grpc.enable_retries': 1 }, server: {} },
  { name: 'no keepalive pings', client: { 'grpc.keepalive_time_ms': -1, 'grpc.keepalive_permit_without_calls': 0 }, server: {} },
  {
    name: 'default message size limits (4 MiB in)',
    client: { 'grpc.max_receive_message_length': -2 },
    server: { 'grpc.max_receive_message_length': -2 },
  },
  {
    name: 'no connection age limit on the server',
    client: {},
    server: { 'grpc.max_connection_age_ms': -2, 'grpc.max_connection_age_grace_ms': -2 },
  },
  { name: 'pick_first instead of round_robin', client: { 'grpc.service_config': -2 }, server: {} },
  {
    name: 'session memory 50 MiB (default 10)',
    client: { 'grpc-node.max_session_memory': 50 },
    server: { 'grpc-node.max_session_memory': 50 },
  },
  {
    name: 'HTTP/2 flow-control window 1 MiB',
    client: { 'grpc.http2.initial_window_size': 1 << 20 },
    server: { 'grpc.http2.initial_window_size': 1 << 20 },
  },
];

/** The gateway's options with a variant's changes; -2 removes an option (grpc-js's default). */
function options(changes) {
  const merged = { ...channelOptions, ...changes };
  for (const [key, value] of Object.entries(merged)) if (value === -2) delete merged[key];
  return merged;
}

if (process.argv[2] === 'server') {
  const server = new grpc.Server(options(JSON.parse(process.argv[3])));
  const response = Buffer.alloc(600, 'r');
  server.addService(definition, { Call: (_call, callback) => callback(null, response) });
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (_error, port) => process.send({ port }));
} else {
  const request = Buffer.alloc(300, 'q');
  const rows = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const variant of VARIANTS) rows.push({ round, name: variant.name, ...(await measure(variant)) });
  }
  console.log(`Unary calls, ${IN_FLIGHT} in flight, ${SECONDS} s per variant, median of ${ROUNDS} rounds; Node ${process.version}\n`);
  console.log('| variant | calls/s | CPU µs per call (client + server) | ÷ baseline CPU |\n|---|--:|--:|--:|');
  const median = (values) => {
    const v = [...values].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  const baseline = median(rows.filter((r) => r.name === VARIANTS[0].name).map((r) => r.cpuUs));
  for (const variant of VARIANTS) {
    const mine = rows.filter((r) => r.name === variant.name);
    const cpu = median(mine.map((r) => r.cpuUs));
    console.log(`| ${variant.name} | ${median(mine.map((r) => r.rps)).toFixed(0)} | ${cpu.toFixed(0)} | ${(cpu / baseline).toFixed(2)} |`);
  }

  async function measure(variant) {
    const child = fork(fileURLToPath(import.meta.url), ['server', JSON.stringify(variant.server)]);
    const { port } = await new Promise((resolve) => child.once('message', resolve));
    const Client = grpc.makeGenericClientConstructor(definition, 'Echo');
    const client = new Client(`ipv4:127.0.0.1:${port}`, grpc.credentials.createInsecure(), options(variant.client));
    const call = () =>
      new Promise((resolve, reject) => {
        const metadata = new grpc.Metadata();
        metadata.set('x-request-id', 'req_0123456789abcdef');
        metadata.set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
        client.Call(request, metadata, { deadline: Date.now() + 10_000 }, (error, reply) => (error ? reject(error) : resolve(reply)));
      });
    // Warm the connection and both sides' JIT.
    for (let i = 0; i < 2000; i += 1) await call();
    const before = cpuSeconds(process.pid) + cpuSeconds(child.pid);
    let calls = 0;
    const end = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < end) {
          await call();
          calls += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(process.pid) + cpuSeconds(child.pid) - before;
    client.close();
    child.kill();
    return { rps: calls / elapsed, cpuUs: (cpu * 1e6) / calls };
  }
}
