#!/usr/bin/env node
// What a lighter gRPC hop could save: the same unary call (about 300 bytes in, 600 out, with the
// gateway's metadata; 50 in flight; client and server in two processes) made by grpc-js and by
// a bare gRPC-over-HTTP/2 client on Node's http2 module, answered by grpc-js's server and by a
// bare http2 server, each pair measured in turn. The wire is gRPC's either way (length-prefixed
// messages, grpc-status in trailers), so each bare side talks to the other's grpc-js side.
// Prints calls per second and each process's CPU per call: the share of a hop grpc-js's own
// layers (call objects, filters, resolver and balancer, channelz hooks) cost on each side.
// Usage: npm run build && node bench/grpc-hop.mjs   (GRPC_SECONDS=4, GRPC_ROUNDS=3)
import { fork } from 'node:child_process';
import http2 from 'node:http2';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { channelOptions } from '@gateway/grpc';
import { cpuSeconds } from './lib/procs.mjs';

const SECONDS = Number(process.env.GRPC_SECONDS ?? 4);
const ROUNDS = Number(process.env.GRPC_ROUNDS ?? 3);
const IN_FLIGHT = 50;
const METHOD = '/bench.Echo/Call';
const REQUEST_ID = 'req_0123456789abcdef';
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

const identity = (b) => b;
/** The one method, bytes in and out (no protobuf on either side: only the transport differs). */
const ECHO = {
  Call: {
    path: METHOD,
    requestStream: false,
    responseStream: false,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
  },
};

/** A gRPC message frame: not compressed, 4-byte big-endian length, the bytes. */
function frame(message) {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

function grpcJsServer() {
  const server = new grpc.Server(channelOptions);
  const response = Buffer.alloc(600, 'r');
  server.addService(ECHO, { Call: (_call, callback) => callback(null, response) });
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (_error, port) => process.send({ port }));
}

function bareServer() {
  const response = frame(Buffer.alloc(600, 'r'));
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    if (headers[':path'] !== METHOD) {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' }, { endStream: true });
      return;
    }
    const parts = [];
    stream.on('data', (chunk) => parts.push(chunk));
    stream.on('end', () => {
      Buffer.concat(parts).subarray(5); // the request message, as a handler would read it
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(response);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: /** @type {import('node:net').AddressInfo} */ (server.address()).port }));
}

/** A generated client's unary calls with the gateway's metadata, whoever made the client. */
function echoCalls(client) {
  return {
    call: (request) =>
      new Promise((resolve, reject) => {
        const metadata = new grpc.Metadata();
        metadata.set('x-request-id', REQUEST_ID);
        metadata.set('traceparent', TRACEPARENT);
        client.Call(request, metadata, { deadline: Date.now() + 10_000 }, (error, reply) => (error ? reject(error) : resolve(reply)));
      }),
    close: () => client.close(),
  };
}

const EchoClient = grpc.makeGenericClientConstructor(ECHO, 'Echo');

function grpcJsClient(port) {
  return echoCalls(new EchoClient(`ipv4:127.0.0.1:${port}`, grpc.credentials.createInsecure(), channelOptions));
}

function bareClient(port) {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  return {
    call: (request) =>
      new Promise((resolve, reject) => {
        const stream = session.request({
          ':method': 'POST',
          ':path': METHOD,
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': '10000m',
          'x-request-id': REQUEST_ID,
          traceparent: TRACEPARENT,
        });
        const parts = [];
        let status;
        stream.on('data', (chunk) => parts.push(chunk));
        stream.once('trailers', (trailers) => {
          status = trailers['grpc-status'];
        });
        stream.once('error', reject);
        stream.once('end', () => (status === '0' ? resolve(Buffer.concat(parts).subarray(5)) : reject(new Error(`grpc-status ${status}`))));
        stream.end(frame(request));
      }),
    close: () => session.close(),
  };
}

const PAIRS = [
  { client: 'grpc-js', server: 'grpc-js' },
  { client: 'bare http2', server: 'grpc-js' },
  { client: 'grpc-js', server: 'bare http2' },
  { client: 'bare http2', server: 'bare http2' },
];
const SERVERS = { 'grpc-js': grpcJsServer, 'bare http2': bareServer };
const CLIENTS = { 'grpc-js': grpcJsClient, 'bare http2': bareClient };

if (process.argv[2] === 'server') {
  SERVERS[process.argv[3]]();
} else {
  const request = Buffer.alloc(300, 'q');
  const rows = [];
  for (let round = 0; round < ROUNDS; round += 1) for (const pair of PAIRS) rows.push({ ...pair, ...(await measure(pair)) });
  const median = (values) => {
    const v = [...values].sort((a, b) => a - b);
    return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  };
  console.log(`Unary calls, ${IN_FLIGHT} in flight, ${SECONDS} s per pair, median of ${ROUNDS} rounds; Node ${process.version}\n`);
  console.log(
    '| client | server | calls/s | client CPU µs/call | server CPU µs/call | both | ÷ grpc-js both |\n|---|---|--:|--:|--:|--:|--:|',
  );
  const both = (pair) =>
    median(rows.filter((r) => r.client === pair.client && r.server === pair.server).map((r) => r.clientUs + r.serverUs));
  const baseline = both(PAIRS[0]);
  for (const pair of PAIRS) {
    const mine = rows.filter((r) => r.client === pair.client && r.server === pair.server);
    const total = both(pair);
    console.log(
      `| ${pair.client} | ${pair.server} | ${median(mine.map((r) => r.rps)).toFixed(0)} | ${median(mine.map((r) => r.clientUs)).toFixed(0)} | ${median(mine.map((r) => r.serverUs)).toFixed(0)} | ${total.toFixed(0)} | ${(total / baseline).toFixed(2)} |`,
    );
  }

  async function measure(pair) {
    const child = fork(fileURLToPath(import.meta.url), ['server', pair.server]);
    const { port } = await new Promise((resolve) => child.once('message', resolve));
    const client = CLIENTS[pair.client](port);
    // Warm the connection and both sides' JIT.
    for (let i = 0; i < 2000; i += 1) await client.call(request);
    const clientBefore = cpuSeconds(process.pid);
    const serverBefore = cpuSeconds(child.pid);
    let calls = 0;
    const started = performance.now();
    const end = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < end) {
          await client.call(request);
          calls += 1;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const clientUs = ((cpuSeconds(process.pid) - clientBefore) * 1e6) / calls;
    const serverUs = ((cpuSeconds(child.pid) - serverBefore) * 1e6) / calls;
    client.close();
    child.kill();
    return { rps: calls / elapsed, clientUs, serverUs };
  }
}
