#!/usr/bin/env node
// Soak: 10,000 chat calls through the four services as separate processes over NATS JetStream,
// with accounting restarted twice and NATS once during the run. Prints the ledger's total
// against the priced usage the simulator reported, the counts of lost and doubled events, and
// accounting's CPU per request (the hot path's authorization and budget hold).
// Usage: npm run build && node bench/soak.mjs   (SOAK_CALLS=10000 SOAK_CONCURRENCY=20)
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Pool } from 'undici';
import { writeChatConfig } from './lib/config.mjs';
import { cpuSeconds } from './lib/procs.mjs';
import { createKey, freePort, root, scratchDir, startNats as startNatsServer, startUpstream, track, untrack } from './lib/start.mjs';

const CALLS = Number(process.env.SOAK_CALLS ?? 10_000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 20);
const ADMIN = 'soak-admin-token-0123456789';
const tmp = scratchDir('gateway-soak-');
const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- NATS: one port and one store folder, so a restart comes back on the same stream ----------
const natsPort = await freePort();
const natsDir = join(tmp, 'nats');
let nats;
async function startNats() {
  nats = await startNatsServer(tmp, { port: natsPort, storeDir: natsDir });
}
async function stopNats() {
  await nats.stop();
}
await startNats();

// --- upstream and gateway --------------------------------------------------------------------
const upstream = await startUpstream();
writeChatConfig(join(tmp, 'gateway.yaml'), [{ id: 'soak', url: upstream.fast }], { credentialEnv: 'SOAK_UPSTREAM_KEY' });
const ports = { accounting: await freePort(), chat: await freePort(), video: await freePort(), edge: await freePort() };
const env = (name) => ({
  GATEWAY_CONFIG: join(tmp, 'gateway.yaml'),
  GATEWAY_DATA_DIR: join(tmp, name),
  NATS_URL: `nats://127.0.0.1:${natsPort}`,
  ADMIN_TOKEN: ADMIN,
  SOAK_UPSTREAM_KEY: 'bench-credential',
  HOST: '127.0.0.1',
  PORT: String(ports.edge),
  GRPC_HOST: '127.0.0.1',
  GRPC_PORT: String(ports[name]),
  LOG_LEVEL: 'warn',
  METRICS_PORT: '0',
  ACCOUNTING_ADDRESS: `127.0.0.1:${ports.accounting}`,
  CHAT_ADDRESS: `127.0.0.1:${ports.chat}`,
  VIDEO_ADDRESS: `127.0.0.1:${ports.video}`,
});
const cli = join(root, 'packages/cli/bin/gateway.js');
const procs = {};
let accountingCpu = 0;
async function startService(name) {
  const ready = async () => {
    // LOG_LEVEL=warn keeps the "listening" line out; wait for the port instead.
    for (let i = 0; i < 200; i += 1) {
      const open = await new Promise((resolve) => {
        const socket = createServer();
        socket.once('error', () => resolve(true));
        socket.listen(ports[name], '127.0.0.1', () => socket.close(() => resolve(false)));
      });
      if (open) return;
      await sleep(50);
    }
    throw new Error(`${name} did not listen`);
  };
  const child = spawn(process.execPath, [cli, 'start', '--service', name], {
    env: { ...process.env, ...env(name) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  track(child);
  procs[name] = child;
  await ready();
}
async function stopService(name) {
  const child = procs[name];
  if (name === 'accounting') accountingCpu += cpuSeconds(child.pid);
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  untrack([child]);
}
for (const name of ['accounting', 'chat', 'video', 'edge']) await startService(name);
const edgeUrl = `http://127.0.0.1:${ports.edge}`;
const edge = new Pool(edgeUrl, { connections: CONCURRENCY + 5 });

const key = await createKey(edgeUrl, ADMIN, { name: 'soak', budgetUsd: 100_000 });

// --- the run -----------------------------------------------------------------------------
const body = JSON.stringify({
  model: 'soak',
  messages: [{ role: 'user', content: 'Say hello in one short sentence, please.' }],
  max_tokens: 64,
});
let issued = 0;
let ok = 0;
let failed = 0;
let expectedNanos = 0;
const startedAt = performance.now();
const events = [];
const disturb = async () => {
  const at = (fraction) =>
    new Promise((resolve) => {
      const t = setInterval(() => {
        if (issued >= CALLS * fraction) {
          clearInterval(t);
          resolve();
        }
      }, 5);
    });
  await at(0.25);
  events.push(`accounting restart at call ${issued}`);
  await stopService('accounting');
  await sleep(500);
  await startService('accounting');
  await at(0.5);
  events.push(`NATS restart at call ${issued}`);
  await stopNats();
  await sleep(1000);
  await startNats();
  await at(0.75);
  events.push(`accounting restart at call ${issued}`);
  await stopService('accounting');
  await sleep(500);
  await startService('accounting');
};
const disturbing = disturb();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (issued < CALLS) {
      issued += 1;
      try {
        const response = await edge.request({
          method: 'POST',
          path: '/v1/chat/completions',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        });
        const text = await response.body.text();
        if (response.statusCode === 200) {
          const usage = JSON.parse(text).usage;
          expectedNanos += usage.prompt_tokens * 150 + usage.completion_tokens * 600;
          ok += 1;
        } else {
          failed += 1;
        }
      } catch {
        failed += 1;
      }
    }
  }),
);
await disturbing;
const seconds = (performance.now() - startedAt) / 1000;

// --- settle and compare ------------------------------------------------------------------
/** @type {any} */
let usage;
for (let i = 0; i < 300; i += 1) {
  usage = await (await fetch(`${edgeUrl}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
  const applied = usage.by_model?.find((m) => m.model === 'soak')?.requests ?? 0;
  if (applied >= ok && usage.budget.reserved_usd === 0) break;
  await sleep(200);
}
const ledgerNanos = Math.round(usage.budget.spent_usd * 1e9);
const applied = usage.by_model?.find((m) => m.model === 'soak')?.requests ?? 0;
accountingCpu += cpuSeconds(procs.accounting.pid);
log(`calls: ${CALLS} issued, ${ok} answered 200, ${failed} refused or failed (while accounting or NATS was down), ${seconds.toFixed(1)} s`);
for (const e of events) log(`disturbance: ${e}`);
log(`priced usage reported by the simulator: ${(expectedNanos / 1e9).toFixed(9)} USD over ${ok} calls`);
log(`ledger total:                          ${(ledgerNanos / 1e9).toFixed(9)} USD over ${applied} events`);
log(
  `difference: ${ledgerNanos - expectedNanos} nano-USD; lost events: ${Math.max(0, ok - applied)}; doubled events: ${Math.max(0, applied - ok)}; still reserved: ${usage.budget.reserved_usd} USD`,
);
log(
  `accounting CPU per request (authorization and budget hold on the hot path, plus applying spend): ${((accountingCpu * 1000) / issued).toFixed(3)} ms`,
);
process.stdout.write(
  `${JSON.stringify({ calls: CALLS, ok, failed, seconds, expectedNanos, ledgerNanos, applied, lost: Math.max(0, ok - applied), doubled: Math.max(0, applied - ok), accountingCpuMsPerRequest: (accountingCpu * 1000) / issued })}\n`,
);
process.exit(0);
