#!/usr/bin/env node
// CPU profiles of the gateway at load: starts a zero-latency upstream and the gateway with
// --cpu-prof (one process, or `--separate` over a nats-server of its own, every process
// profiled), sends PROFILE_SECONDS of calls at 50 connections, stops the gateway (each process
// writes its profile) and prints, per process, the self time by package, the top functions and
// the parts of a call (native and Node time charged to the part that called it),
// counting only the samples taken under the measured load.
// Usage: npm run build && node bench/profile.mjs
//   PROFILE_SECONDS=10       length of the measured load (after 2 s of warm-up)
//   PROFILE_MODE=separate    profile `gateway start --separate` (default: one process)
//   PROFILE_STREAM=1         streamed calls
//   PROFILE_RATE=300         calls at a fixed rate instead of 50 connections
//   PROFILE_SAVE=dir         keep the .cpuprofile files there (open them in Chrome's DevTools)
//   PROFILE_CALLERS=name     also print which of the gateway's functions the self time of
//                            functions so named (e.g. `run`, a SQLite statement's) is spent for
//   PROFILE_KIND=alloc       what a call allocates instead (V8's sampling heap profiler, counting
//                            objects already collected too), by package and function, one process
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeChatConfig } from './lib/config.mjs';
import { closedLoop, fixedRate, target } from './lib/load.mjs';
import { createKey, root, scratchDir, startGateway, startUpstream } from './lib/start.mjs';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const STREAM = process.env.PROFILE_STREAM === '1';
const SEPARATE = process.env.PROFILE_MODE === 'separate';
const ALLOCATIONS = process.env.PROFILE_KIND === 'alloc';
if (ALLOCATIONS && SEPARATE) throw new Error('PROFILE_KIND=alloc profiles the one-process start only');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const tmp = scratchDir('gateway-profile-');
/** CLOCK_MONOTONIC in µs: the clock of a .cpuprofile's timestamps, the same in every process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

const upstream = await startUpstream();
writeChatConfig(join(tmp, 'gateway.yaml'), [{ id: 'bench-fast', url: upstream.fast }]);
const profiles = join(tmp, 'profiles');
const env = {
  GATEWAY_CONFIG: join(tmp, 'gateway.yaml'),
  GATEWAY_DATA_DIR: join(tmp, 'data'),
  ADMIN_TOKEN,
  BENCH_UPSTREAM_KEY: 'bench-credential',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
};
let gateway;
/** Process id → name, to tell the profiles apart. */
const names = new Map();
if (SEPARATE) {
  // Every process the supervisor starts inherits the flags and writes its own profile.
  gateway = await startGateway({
    mode: 'separate',
    natsDir: tmp,
    env: { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profiles}` },
  });
  for (const [name, pid] of Object.entries(gateway.pids)) names.set(pid, name);
  names.set(gateway.child.pid, 'supervisor');
} else {
  const flags = ALLOCATIONS ? ['--import', join(root, 'bench/lib/allocations.mjs')] : ['--cpu-prof', `--cpu-prof-dir=${profiles}`];
  gateway = await startGateway({
    mode: 'one',
    nodeArgs: flags,
    env: { ...env, METRICS_PORT: '0', ALLOCATION_PROFILE: join(tmp, 'allocations.json') },
  });
  names.set(gateway.child.pid, 'one process');
}
const url = gateway.url;
const key = await createKey(url, ADMIN_TOKEN, { name: 'profile', models: ['bench-fast'], budgetUsd: 1e6 });
const body = JSON.stringify({
  model: 'bench-fast',
  messages: [{ role: 'user', content: 'Hello there' }],
  ...(STREAM ? { stream: true } : {}),
});
const t = target(url, '/v1/chat/completions', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body);
await closedLoop(t, { connections: 50, durationMs: 2000, stream: STREAM });
const loadFrom = monotonicUs();
if (ALLOCATIONS) gateway.child.kill('SIGUSR2');
const result = process.env.PROFILE_RATE
  ? await fixedRate(t, { rate: Number(process.env.PROFILE_RATE), durationMs: SECONDS * 1000, stream: STREAM })
  : await closedLoop(t, { connections: 50, durationMs: SECONDS * 1000, stream: STREAM });
const loadTo = monotonicUs();
process.stderr.write(
  `${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, errors ${result.errors}\n`,
);
if (ALLOCATIONS) {
  gateway.child.kill('SIGUSR2');
  const file = join(tmp, 'allocations.json');
  for (let i = 0; i < 100 && !existsSync(file); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  await gateway.stop(30_000);
  summariseAllocations(JSON.parse(readFileSync(file, 'utf8')));
  process.exit(0);
}
await gateway.stop(30_000);

if (process.env.PROFILE_SAVE) mkdirSync(process.env.PROFILE_SAVE, { recursive: true });
const files = readdirSync(profiles).filter((f) => f.endsWith('.cpuprofile'));
for (const file of files.sort()) {
  // CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile
  const [pid, tid] = file.split('.').slice(3, 5).map(Number);
  const owner = names.get(pid) ?? `pid ${pid}`;
  // Thread 0 is the main thread; the others are workers (the embedded store's checkpointer).
  const name = tid === 0 ? owner : `${owner}, worker thread ${tid}`;
  if (owner === 'supervisor') continue;
  if (process.env.PROFILE_SAVE)
    copyFileSync(join(profiles, file), join(process.env.PROFILE_SAVE, `${name.replace(/\W+/g, '-')}.cpuprofile`));
  summarise(name, JSON.parse(readFileSync(join(profiles, file), 'utf8')));
}
// The upstream's process and the load generator's sockets would keep this one alive: the exit
// handler stops the children.
process.exit(0);

/** Bytes allocated per call, by package and by allocating function (a sampled estimate). */
function summariseAllocations(profile) {
  const byPackage = new Map();
  const byFunction = new Map();
  let total = 0;
  const walk = (node) => {
    const { url, functionName, lineNumber } = node.callFrame;
    const where = bucket(url);
    byPackage.set(where, (byPackage.get(where) ?? 0) + node.selfSize);
    const fn = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const perCall = (bytes) => `${(bytes / Math.max(1, result.requests) / 1024).toFixed(1)} KiB`;
  console.log(`\n### one process: ${perCall(total)} allocated per call (sampled)\n`);
  console.log('| where | per call |\n|---|--:|');
  for (const [where, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`| ${where} | ${perCall(bytes)} |`);
  console.log('\n| allocating function | per call |\n|---|--:|');
  for (const [fn, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`| ${fn} | ${perCall(bytes)} |`);
}

function bucket(url) {
  if (!url) return '(native, gc, idle)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const g = /\/(packages|services)\/([^/]+)\//.exec(url);
  if (g) return `gateway ${g[1]}/${g[2]}`;
  return url;
}

/**
 * What the call's parts cost: the self time of Node's internals and of native code (system
 * calls, JSON, SQLite, V8's builtins) is charged to the nearest frame above it that belongs to a
 * part, so a socket write counts for whoever wrote (the HTTP reply, the upstream call, the log
 * lines). The first matching rule wins, from the leaf up.
 */
function byPart(profile, parent, self, busy) {
  /** @type {[string, RegExp][]} */
  const PARTS = [
    ["logs (pino, the access line's writer)", /node_modules\/(pino|sonic-boom|thread-stream)\/|\/packages\/logging\//],
    ['metrics (prom-client)', /node_modules\/prom-client\//],
    ['traces (OpenTelemetry)', /node_modules\/@opentelemetry\//],
    ['telemetry glue (access line, metrics, spans per call)', /\/packages\/telemetry\//],
    ['store (SQLite: outbox, ledger, counters, keys)', /\/packages\/store\//],
    ['bus (spend events: outbox, NATS client)', /\/packages\/bus\/|node_modules\/nats\//],
    ['accounting (ledger, budgets, leases)', /\/services\/accounting\//],
    ['upstream call (undici, routing, retries)', /node_modules\/undici\/|\/packages\/upstream\//],
    ['chat service (checks, translation, metering)', /\/services\/chat\//],
    [
      'service calls and contracts (gRPC or in process, protobuf, ids, key hashes)',
      /\/packages\/(grpc|protos|contracts)\/|node_modules\/(@grpc|protobufjs|@protobufjs|long)\//,
    ],
    ['edge (auth, catalog, routes, errors)', /\/services\/(edge|video)\/|\/packages\/(errors|config|pricing|runtime|typebox)\//],
    [
      'HTTP server (Fastify)',
      /node_modules\/(fastify|@fastify|find-my-way|avvio|fast-json-stringify|light-my-request|toad-cache|fast-querystring|process-warning|rfdc|abstract-logging|secure-json-parse|fast-decode-uri-component|ret|safe-regex2)\//,
    ],
  ];
  const memo = new Map();
  const partOf = (node) => {
    if (memo.has(node.id)) return memo.get(node.id);
    const { url, functionName } = node.callFrame;
    let part;
    if (functionName === '(garbage collector)') part = 'garbage collection';
    else if (functionName === '(program)') part = 'V8 and Node outside JavaScript (program)';
    else part = PARTS.find(([, re]) => re.test(url))?.[0];
    if (part === undefined) {
      const up = parent.get(node.id);
      part = up && up.callFrame.functionName !== '(root)' ? partOf(up) : 'Node: HTTP parsing, sockets, timers, the event loop';
    }
    memo.set(node.id, part);
    return part;
  };
  const parts = new Map();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (us === 0 || node.callFrame.functionName === '(idle)') continue;
    const part = partOf(node);
    parts.set(part, (parts.get(part) ?? 0) + us);
  }
  console.log('\n| part of the call (native and Node time charged to its caller) | share of busy time | µs per call |\n|---|--:|--:|');
  for (const [part, us] of [...parts].sort((a, b) => b[1] - a[1])) {
    console.log(`| ${part} | ${((100 * us) / busy).toFixed(1)}% | ${(us / Math.max(1, result.requests)).toFixed(1)} |`);
  }
}

function summarise(name, profile) {
  const self = new Map(profile.nodes.map((n) => [n.id, 0]));
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= loadFrom && at <= loadTo) self.set(id, (self.get(id) ?? 0) + delta);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byPackage = new Map();
  const byFunction = new Map();
  let idle = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    const { url, functionName, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idle += us;
    const where = functionName === '(idle)' ? '(idle)' : bucket(url);
    byPackage.set(where, (byPackage.get(where) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  const pct = (us) => `${((100 * us) / total).toFixed(1)}%`;
  const busy = total - idle;
  console.log(
    `\n### ${name}: ${((100 * busy) / total).toFixed(0)}% busy, ${(busy / Math.max(1, result.requests)).toFixed(0)} µs of CPU per call (sampled)\n`,
  );
  // A thread that hardly ran under the load has nothing to show.
  if (busy < 0.03 * total) return;
  console.log('| where | self time |\n|---|--:|');
  for (const [where, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`| ${where} | ${pct(us)} |`);
  console.log('\n| function | self time |\n|---|--:|');
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`| ${fn} | ${pct(us)} |`);
  /** Each node's caller: the parts below and PROFILE_CALLERS walk up the stacks. */
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  byPart(profile, parent, self, busy);

  // The nearest frames of the gateway's own code above the named functions' samples.
  if (!process.env.PROFILE_CALLERS) return;
  const callers = new Map();
  let named = 0;
  for (const node of profile.nodes) {
    if (node.callFrame.functionName !== process.env.PROFILE_CALLERS) continue;
    const us = self.get(node.id) ?? 0;
    named += us;
    const chain = [];
    for (let up = parent.get(node.id); up && chain.length < 3; up = parent.get(up.id)) {
      const { url, functionName, lineNumber } = up.callFrame;
      if (/\/(packages|services)\//.test(url) && !url.includes('node_modules')) {
        chain.push(`${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`);
      }
    }
    const caller = chain.join(' < ') || '(no gateway frame)';
    callers.set(caller, (callers.get(caller) ?? 0) + us);
  }
  if (named === 0) return;
  console.log(`\n| ${process.env.PROFILE_CALLERS} (${pct(named)} in all), called for | self time |\n|---|--:|`);
  for (const [caller, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`| ${caller} | ${pct(us)} |`);
}
