#!/usr/bin/env node
// Chat benchmark: the same load sent directly to a zero-latency upstream, through a bare
// Fastify + undici proxy (the yardstick) and through the gateway, alternating, in one run; for
// the one-process start and for the four services as separate processes.
// Usage: npm run build && node bench/chat.mjs   (BENCH_SECONDS=5, BENCH_ROUNDS=2, BENCH_MODES=one,separate)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedLoop, fixedRate, sequential, target } from './lib/load.mjs';
import { cpuSeconds, rssMiB, start, stopAll } from './lib/procs.mjs';
import { wrkAvailable, wrkClosedLoop } from './lib/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MODES = (process.env.BENCH_MODES ?? 'one,separate').split(',');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const children = [];
const tmp = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
const cleanup = () => {
  stopAll(children);
  rmSync(tmp, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

const json = (line) => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};
const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// --- upstreams and yardstick -------------------------------------------------------------
const upstream = await start([join(root, 'bench/lib/upstream.mjs')], { ready: json, name: 'upstream' });
children.push(upstream.child);
const urls = upstream.value;
const yardstick = await start([join(root, 'bench/lib/yardstick.mjs'), urls.fast, urls.spaced], { ready: json, name: 'yardstick' });
children.push(yardstick.child);
const naive = await start([join(root, 'bench/lib/naive-chain.mjs'), urls.fast, urls.spaced], { ready: json, name: 'naive chain' });
children.push(naive.child);

const configPath = join(tmp, 'gateway.yaml');
writeFileSync(
  configPath,
  `
groups:
  - id: bench-fast
    mode: chat
    max_input_tokens: 100000
    max_output_tokens: 4096
    price: { input_per_mtok: 0.15, output_per_mtok: 0.6 }
    deployments: [{ provider: openai, model: bench-model, api_base: "${urls.fast}/v1", api_key_env: BENCH_UPSTREAM_KEY }]
  - id: bench-spaced
    mode: chat
    max_input_tokens: 100000
    max_output_tokens: 4096
    price: { input_per_mtok: 0.15, output_per_mtok: 0.6 }
    deployments: [{ provider: openai, model: bench-model, api_base: "${urls.spaced}/v1", api_key_env: BENCH_UPSTREAM_KEY }]
`,
);
const baseEnv = {
  NODE_OPTIONS: process.env.BENCH_GATEWAY_NODE_OPTIONS ?? '',
  GATEWAY_CONFIG: configPath,
  ADMIN_TOKEN,
  BENCH_UPSTREAM_KEY: 'bench-credential',
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
  // Several gateways run at once; none needs the default metrics port.
  METRICS_PORT: '0',
};

/** Starts the gateway one way or the other; resolves to {url, pids: {name: pid}}. */
async function startGateway(mode) {
  const cli = join(root, 'packages/cli/bin/gateway.js');
  if (mode === 'one') {
    const g = await start([cli, 'start'], {
      env: { ...baseEnv, PORT: '0', GATEWAY_DATA_DIR: join(tmp, 'one') },
      name: 'gateway',
      ready: (line) => json(line)?.msg === 'gateway ready' && json(line).listening,
    });
    children.push(g.child);
    return { url: g.value, pids: { gateway: g.child.pid }, stop: () => stopAll([g.child]) };
  }
  // Separate processes as operators start them: `gateway start --separate`, with spend and key
  // events over a nats-server of the benchmark's own.
  const nats = await startNats();
  const s = await start([cli, 'start', '--separate', '--auto-ports'], {
    // --auto-ports leaves the first edge on PORT.
    env: { ...baseEnv, NATS_URL: nats.url, PORT: String(await freePort()), GATEWAY_DATA_DIR: join(tmp, 'separate') },
    name: 'gateway (separate)',
    ready: (line) => (json(line)?.msg === 'gateway ready' ? json(line) : undefined),
  });
  children.push(s.child);
  const pids = Object.fromEntries(Object.entries(s.value.pids).map(([n, pid]) => [n.replace(/-1$/, ''), pid]));
  return {
    url: s.value.listening,
    pids,
    stop: () => {
      stopAll([s.child]);
      nats.stop();
    },
  };
}

/** A nats-server with JetStream on a free port (the Debian package `nats-server`). */
async function startNats() {
  const binary = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
  if (!binary) throw new Error('separate mode needs nats-server (apt-get install nats-server)');
  const port = await freePort();
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(tmp, 'nats')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${output}`)), 10_000);
    child.stderr.on('data', (d) => {
      output += d;
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: `nats://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

async function createKey(url) {
  const response = await fetch(`${url}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', models: ['*'], budget_usd: 1_000_000 }),
  });
  if (response.status !== 201) throw new Error(`key creation failed: ${response.status}`);
  return (await response.json()).key;
}

const messages = [{ role: 'user', content: 'Say hello in one short sentence, please.' }];
const body = (model, stream) => JSON.stringify({ model, messages, max_tokens: 64, ...(stream ? { stream: true } : {}) });

function targets(gatewayUrl, key, kind, stream) {
  const upstreamAuth = { authorization: 'Bearer bench-credential' };
  return {
    direct: target(kind === 'spaced' ? urls.spaced : urls.fast, '/v1/chat/completions', upstreamAuth, body('bench-model', stream)),
    yardstick: target(`${yardstick.value.url}/${kind}`, '/v1/chat/completions', {}, body('bench-model', stream)),
    naive: target(`${naive.value.url}/${kind}`, '/v1/chat/completions', {}, body('bench-model', stream)),
    gateway: target(
      gatewayUrl,
      '/v1/chat/completions',
      { authorization: `Bearer ${key}` },
      body(kind === 'spaced' ? 'bench-spaced' : 'bench-fast', stream),
    ),
  };
}

// Saturation runs use wrk when it is installed (apt-get install wrk): a C load generator leaves
// the cores to what is measured. Without it, the JavaScript generator runs them.
const useWrk = process.env.BENCH_LOADGEN !== 'js' && (await wrkAvailable());
const saturate = (t, stream) =>
  useWrk
    ? wrkClosedLoop(t, { connections: 50, durationMs: SECONDS * 1000 })
    : closedLoop(t, { connections: 50, durationMs: SECONDS * 1000, stream });
log(`load generator at saturation: ${useWrk ? 'wrk' : 'JavaScript (undici)'}`);

const scenarios = [
  { name: 'plain, 50 connections', kind: 'fast', stream: false, run: (t) => saturate(t, false) },
  { name: 'plain, 300 req/s', kind: 'fast', stream: false, run: (t) => fixedRate(t, { rate: 300, durationMs: SECONDS * 1000 }) },
  { name: 'plain, one at a time', kind: 'fast', stream: false, run: (t) => sequential(t, { count: 150 * SECONDS }) },
  { name: 'stream, 50 connections', kind: 'fast', stream: true, run: (t) => saturate(t, true) },
  {
    name: 'stream, spaced chunks, one at a time',
    kind: 'spaced',
    stream: true,
    run: (t) => sequential(t, { count: 4 * SECONDS, stream: true }),
  },
];

const only = process.env.BENCH_SCENARIOS?.split(',').map(Number);
if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((_, i) => only.includes(i)));

const fmt = (n, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '-');
const results = [];

for (const mode of MODES) {
  log(`\n== gateway: ${mode === 'one' ? 'one process' : 'separate processes'} ==`);
  const gateway = await startGateway(mode);
  const key = await createKey(gateway.url);
  for (const scenario of scenarios) {
    const t = targets(gateway.url, key, scenario.kind, scenario.stream);
    // Warm every path (connections, JIT, caches) before measuring.
    for (const name of Object.keys(t)) await closedLoop(t[name], { connections: 10, durationMs: 500, stream: scenario.stream });
    const best = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const name of ['direct', 'yardstick', 'naive', 'gateway']) {
        const pids =
          name === 'gateway'
            ? Object.values(gateway.pids)
            : name === 'yardstick'
              ? [yardstick.child.pid]
              : name === 'naive'
                ? [naive.child.pid, naive.value.servicePid]
                : [upstream.child.pid];
        const cpuBefore = pids.map(cpuSeconds);
        const r = await scenario.run(t[name]);
        const cpu = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]).reduce((a, b) => a + b, 0);
        r.cpuUsPerRequest = r.requests ? (cpu * 1e6) / r.requests : NaN;
        // Keep the better round: more throughput under saturation, lower p50 otherwise.
        const better = !best[name] || (scenario.name.includes('connections') ? r.rps > best[name].rps : r.p50 < best[name].p50);
        if (better) best[name] = r;
      }
    }
    const rss = Object.fromEntries(Object.entries(gateway.pids).map(([n, pid]) => [n, rssMiB(pid)]));
    results.push({ mode, scenario: scenario.name, best, rss });
    const g = best.gateway;
    const d = best.direct;
    const y = best.yardstick;
    log(`\n${scenario.name}`);
    for (const name of ['direct', 'yardstick', 'naive', 'gateway']) {
      const r = best[name];
      log(
        `  ${name.padEnd(9)} ${fmt(r.rps, 0).padStart(6)} req/s  p50 ${fmt(r.p50)} ms  p99 ${fmt(r.p99)} ms${scenario.stream ? `  first chunk p50 ${fmt(r.firstP50)} ms` : ''}  errors ${r.errors}  cpu ${fmt(r.cpuUsPerRequest, 0)} µs/req`,
      );
    }
    log(
      `  gateway/yardstick throughput ${fmt((100 * g.rps) / y.rps, 1)}%  naive chain/yardstick ${fmt((100 * best.naive.rps) / y.rps, 1)}%  added p50 ${fmt(g.p50 - d.p50)} ms  added p99 ${fmt(g.p99 - d.p99)} ms${scenario.stream ? `  added first chunk p50 ${fmt(g.firstP50 - d.firstP50)} ms` : ''}`,
    );
    if (g.chunkTimes && d.chunkTimes) {
      // Held back: how much later than direct each chunk arrives beyond the first chunk's delay.
      const lag = (times, base) => times.map((ts, i) => ts.map((t0, j) => t0 - (base[i]?.[j] ?? t0)));
      const lags = lag(g.chunkTimes, d.chunkTimes).flatMap((ls) => ls.map((l) => l - (ls[0] ?? 0)));
      log(
        `  chunks per stream ${g.chunkTimes[0]?.length ?? 0} (direct ${d.chunkTimes[0]?.length ?? 0}); worst extra delay of a later chunk vs its first ${fmt(Math.max(...lags))} ms`,
      );
    }
    log(
      `  RSS MiB: ${Object.entries(rss)
        .map(([n, v]) => `${n} ${fmt(v, 0)}`)
        .join(', ')}`,
    );
  }
  gateway.stop();
}

process.stdout.write(
  `${JSON.stringify(
    results.map(({ mode, scenario, best, rss }) => ({
      mode,
      scenario,
      rss,
      ...Object.fromEntries(
        Object.entries(best).map(([n, r]) => [
          n,
          { rps: r.rps, p50: r.p50, p99: r.p99, firstP50: r.firstP50, cpuUsPerRequest: r.cpuUsPerRequest, errors: r.errors },
        ]),
      ),
    })),
    null,
    1,
  )}\n`,
);
process.exit(0);
