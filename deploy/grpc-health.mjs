#!/usr/bin/env node
// A grpc.health.v1 client for container health checks (docker compose; Kubernetes uses its own
// gRPC probes). Calls Health/Check once and exits 0 when the answer is SERVING, 1 otherwise
// (NOT_SERVING, unreachable, deadline passed, unknown service).
//
//   node deploy/grpc-health.mjs [HOST:PORT] [SERVICE]
//
// HOST:PORT defaults to 127.0.0.1:$GRPC_PORT; SERVICE defaults to "" (the whole server).
// Uses the gateway's own @grpc/grpc-js and @grpc/proto-loader and proto/grpc/health/v1/health.proto,
// so it runs inside the image with nothing else installed.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
// Resolved the way the gateway resolves them (from the protos workspace), wherever npm put them.
const require = createRequire(new URL('packages/protos/package.json', root));
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const target = process.argv[2] ?? `127.0.0.1:${process.env.GRPC_PORT ?? '50051'}`;
const service = process.argv[3] ?? '';
const timeoutMs = Number(process.env.HEALTH_TIMEOUT_MS ?? 3000);

const definition = protoLoader.loadSync('grpc/health/v1/health.proto', {
  includeDirs: [fileURLToPath(new URL('proto/', root))],
  keepCase: true,
  enums: String,
  defaults: true,
});
const { Health } = grpc.loadPackageDefinition(definition).grpc.health.v1;
const client = new Health(target, grpc.credentials.createInsecure());

client.Check({ service }, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) => {
  client.close();
  if (error) {
    process.stderr.write(`grpc-health: ${target}: ${error.details || error.message}\n`);
    process.exit(1);
  }
  const status = response?.status ?? 'UNKNOWN';
  if (status !== 'SERVING') process.stderr.write(`grpc-health: ${target}: ${status}\n`);
  process.exit(status === 'SERVING' ? 0 : 1);
});
