#!/usr/bin/env node
// Memory under load: MEMORY_CALLS plain chat calls (default 200,000) at 50 connections through
// the one-process gateway, then through the separate processes over NATS; the RSS of every
// gateway process is sampled at each tenth of the calls, so growth over the run shows.
// Usage: npm run build && node bench/memory.mjs   (MEMORY_CALLS=200000, MEMORY_MODES=one,separate)
import { join } from 'node:path';
import { Pool } from 'undici';
import { writeChatConfig } from './lib/config.mjs';
import { cpuSeconds, rssMiB } from './lib/procs.mjs';
import { createKey, scratchDir, startGateway, startUpstream } from './lib/start.mjs';

const CALLS = Number(process.env.MEMORY_CALLS ?? 200_000);
const MODES = (process.env.MEMORY_MODES ?? 'one,separate').split(',');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const tmp = scratchDir('gateway-memory-');
const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);

const upstream = await startUpstream();
const configPath = writeChatConfig(join(tmp, 'gateway.yaml'), [{ id: 'bench-fast', url: upstream.fast }]);
const baseEnv = {
  GATEWAY_CONFIG: configPath,
  ADMIN_TOKEN,
  BENCH_UPSTREAM_KEY: 'bench-credential',
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
  METRICS_PORT: '0',
};

/** CALLS calls at 50 connections; RSS of each process at every tenth. */
async function run(mode) {
  const gateway = await startGateway({ mode, natsDir: tmp, env: { ...baseEnv, GATEWAY_DATA_DIR: join(tmp, mode) } });
  const key = await createKey(gateway.url, ADMIN_TOKEN, { name: 'memory', models: ['bench-fast'], budgetUsd: 1e6 });
  const pool = new Pool(gateway.url, { connections: 50, pipelining: 1 });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ model: 'bench-fast', messages: [{ role: 'user', content: 'Hello there' }] });
  const samples = [{ calls: 0, rss: Object.fromEntries(Object.entries(gateway.pids).map(([n, pid]) => [n, rssMiB(pid)])) }];
  const cpuBefore = Object.fromEntries(Object.entries(gateway.pids).map(([n, pid]) => [n, cpuSeconds(pid)]));
  let sent = 0;
  let done = 0;
  let errors = 0;
  const step = CALLS / 10;
  const startedAt = performance.now();
  const worker = async () => {
    while (sent < CALLS) {
      sent += 1;
      const response = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers, body });
      await response.body.dump();
      if (response.statusCode !== 200) errors += 1;
      done += 1;
      if (done % step === 0) {
        samples.push({ calls: done, rss: Object.fromEntries(Object.entries(gateway.pids).map(([n, pid]) => [n, rssMiB(pid)])) });
        log(`${mode}: ${done} calls, ${((done / (performance.now() - startedAt)) * 1000).toFixed(0)} req/s`);
      }
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  const cpuUs = Object.fromEntries(Object.entries(gateway.pids).map(([n, pid]) => [n, ((cpuSeconds(pid) - cpuBefore[n]) * 1e6) / CALLS]));
  await pool.close();
  await gateway.stop();
  return { samples, errors, cpuUs, seconds: (performance.now() - startedAt) / 1000 };
}

const results = {};
for (const mode of MODES) results[mode] = await run(mode);
for (const [mode, { samples, errors, cpuUs, seconds }] of Object.entries(results)) {
  const names = Object.keys(samples[0].rss);
  console.log(
    `\n${mode === 'one' ? 'One process' : 'Separate processes (NATS)'}: ${CALLS} calls in ${seconds.toFixed(0)} s, ${errors} errors. RSS in MiB:\n`,
  );
  console.log(`| calls | ${names.join(' | ')} |`);
  console.log(`|--:|${names.map(() => '--:').join('|')}|`);
  for (const s of samples) console.log(`| ${s.calls} | ${names.map((n) => s.rss[n].toFixed(0)).join(' | ')} |`);
  const peak = Object.fromEntries(names.map((n) => [n, Math.max(...samples.slice(1).map((s) => s.rss[n]))]));
  const growth = Object.fromEntries(names.map((n) => [n, samples.at(-1).rss[n] - samples[2].rss[n]]));
  console.log(`\nCPU per call: ${names.map((n) => `${n} ${cpuUs[n].toFixed(0)} µs`).join(', ')}`);
  console.log(
    `peak: ${names.map((n) => `${n} ${peak[n].toFixed(0)} MiB`).join(', ')}; from 20% of the calls to the end: ${names.map((n) => `${n} ${growth[n] >= 0 ? '+' : ''}${growth[n].toFixed(0)} MiB`).join(', ')}`,
  );
}
process.exit(0);
