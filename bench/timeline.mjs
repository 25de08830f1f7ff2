#!/usr/bin/env node
// Where one call's time goes, one call at a time: the same sequential calls sent directly to the
// zero-latency upstream and through the gateway, with a probe in the gateway's and the upstream's
// processes (bench/lib/timeline-probe.mjs) noting when each received the request, called the
// upstream, was answered and first wrote back. Every process reads the same clock
// (CLOCK_MONOTONIC: a wall clock may be adjusted between two processes' starts), so the marks of
// one call split its time to the first byte into hops and each process's own share.
// Prints one Markdown table per scenario: the median of each part, directly and through the
// gateway. bench/chat.mjs gives the added latencies; this says where they are spent.
//
// Usage: npm run build && node bench/timeline.mjs
//   TIMELINE_MODE=separate  `gateway start --separate` over a nats-server of its own (default: one process)
//   TIMELINE_CALLS=300      calls per round for plain calls and streams (spaced streams: a tenth)
//   TIMELINE_ROUNDS=3       rounds, direct and gateway alternating in each
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeChatConfig } from './lib/config.mjs';
import { target } from './lib/load.mjs';
import { createKey, root, scratchDir, startGateway, startUpstream } from './lib/start.mjs';

const SEPARATE = process.env.TIMELINE_MODE === 'separate';
const CALLS = Number(process.env.TIMELINE_CALLS ?? 300);
const ROUNDS = Number(process.env.TIMELINE_ROUNDS ?? 3);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const UPSTREAM_KEY = 'bench-credential';
const tmp = scratchDir('gateway-timeline-');

/** Every mark the probes wrote: {role, event, at}. */
const marks = [];
function collect(child) {
  createInterface({ input: child.stderr }).on('line', (line) => {
    const [tag, role, event, at] = line.split(' ');
    if (tag === 'timeline') marks.push({ role, event, at: Number(at) });
  });
}
const probe = (role) => ({ NODE_OPTIONS: `--import ${join(root, 'bench/lib/timeline-probe.mjs')}`, TIMELINE_ROLE: role });

const upstream = await startUpstream({ env: probe('upstream') });
collect(upstream.child);
writeChatConfig(join(tmp, 'gateway.yaml'), [
  { id: 'bench-fast', url: upstream.fast },
  { id: 'bench-spaced', url: upstream.spaced },
]);
const env = {
  ...probe('gateway'),
  GATEWAY_CONFIG: join(tmp, 'gateway.yaml'),
  GATEWAY_DATA_DIR: join(tmp, 'data'),
  ADMIN_TOKEN,
  BENCH_UPSTREAM_KEY: UPSTREAM_KEY,
  HOST: '127.0.0.1',
  METRICS_PORT: '0',
  LOG_LEVEL: 'info',
};
const gateway = await startGateway({ mode: SEPARATE ? 'separate' : 'one', natsDir: tmp, env });
collect(gateway.child);
const url = gateway.url;
const key = await createKey(url, ADMIN_TOKEN, { name: 'timeline', budgetUsd: 1e6 });

const body = (model, stream) =>
  JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello there' }], ...(stream ? { stream: true } : {}) });
const targets = (group, upstreamUrl, stream) => ({
  direct: target(upstreamUrl, '/v1/chat/completions', { authorization: `Bearer ${UPSTREAM_KEY}` }, body('bench-model', stream)),
  gateway: target(url, '/v1/chat/completions', { authorization: `Bearer ${key}` }, body(group, stream)),
});
/** @type {{ name: string, stream: boolean, calls: number, gapMs?: number, direct: import('./lib/load.mjs').Target, gateway: import('./lib/load.mjs').Target }[]} */
const scenarios = [
  { name: 'plain call', stream: false, calls: CALLS, ...targets('bench-fast', upstream.fast, false) },
  { name: 'stream, every chunk at once', stream: true, calls: CALLS, ...targets('bench-fast', upstream.fast, true) },
  {
    // The spaced streams below arrive after 200 ms without a call: the same idle, without the stream.
    name: 'plain call, 200 ms after the last',
    stream: false,
    calls: Math.max(5, Math.round(CALLS / 10)),
    gapMs: 200,
    ...targets('bench-fast', upstream.fast, false),
  },
  {
    name: 'stream, chunks 25 ms apart',
    stream: true,
    calls: Math.max(5, Math.round(CALLS / 10)),
    ...targets('bench-spaced', upstream.spaced, true),
  },
];

/** CLOCK_MONOTONIC in ms, as the probes read it. */
const clockMs = () => Number(process.hrtime.bigint() / 1000n) / 1000;

/** Sequential calls (`gapMs` apart); each {start, first, end, next} in ms of the probes' clock. */
async function calls(t, count, gapMs = 0) {
  /** @type {{ start: number, first: number, end: number, next?: number }[]} */
  const out = [];
  for (let i = 0; i < count; i += 1) {
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    const started = clockMs();
    const response = await t.pool.request({ method: 'POST', path: t.path, headers: t.headers, body: t.body });
    let first;
    for await (const chunk of response.body) {
      first ??= clockMs();
      void chunk;
    }
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    out.push({ start: started, first: first ?? clockMs(), end: clockMs() });
  }
  for (let i = 0; i < out.length; i += 1) out[i].next = out[i + 1]?.start ?? out[i].end + 100;
  return out;
}

/**
 * The first mark of `role`/`event` from `from` (the call's start by default) to its end. Calls are
 * sequential, but a server's `finish` can follow the caller's last byte: it is looked for after
 * the first write, up to the next call.
 */
function markIn(call, role, event, from = call.start, to = call.end) {
  return marks.find((m) => m.role === role && m.event === event && m.at >= from && m.at <= to)?.at;
}

/** The parts of one call's time to its first byte, in ms (undefined where a mark is missing). */
function parts(kind, call, stream) {
  const up = { request: markIn(call, 'upstream', 'request'), wrote: markIn(call, 'upstream', 'first-write') };
  if (kind === 'direct') {
    const socketWrite = markIn(call, 'upstream', 'socket-write', up.wrote);
    return {
      'to the upstream': up.request - call.start,
      'the upstream, to its first write': up.wrote - up.request,
      'back to the caller': call.first - up.wrote,
      '… of which the socket to the caller (kernel, waking the caller)': call.first - socketWrite,
      'first byte, in all': call.first - call.start,
    };
  }
  const edge = { request: markIn(call, 'gateway', 'request'), wrote: markIn(call, 'gateway', 'first-write') };
  const sent = markIn(call, 'gateway', 'upstream-sent');
  const socketWrite = markIn(call, 'gateway', 'socket-write', edge.wrote);
  // A plain answer is written once the upstream's whole body is in; a stream's with its first chunk.
  const answered = markIn(call, 'gateway', stream ? 'upstream-answered' : 'upstream-ended');
  return {
    'to the gateway': edge.request - call.start,
    'gateway: request in to upstream call out': sent - edge.request,
    'to the upstream': up.request - sent,
    'the upstream, to its first write': up.wrote - up.request,
    'back to the gateway (a plain answer: to its end)': answered - up.wrote,
    'gateway: answer in to first write': edge.wrote - answered,
    'back to the caller': call.first - edge.wrote,
    '… of which the gateway: first write to the socket': socketWrite - edge.wrote,
    '… of which the socket to the caller (kernel, waking the caller)': call.first - socketWrite,
    'first byte, in all': call.first - call.start,
    'gateway: first write to the response finished': markIn(call, 'gateway', 'finish', edge.wrote, call.next) - edge.wrote,
  };
}

const median = (values) => {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length === 0 ? Number.NaN : v[Math.floor(v.length / 2)];
};

console.log(`## Where one call's time goes (Node ${process.version}, ${SEPARATE ? 'separate processes' : 'one process'})\n`);
for (const scenario of scenarios) {
  const results = { direct: [], gateway: [] };
  // Warm-up, then rounds with the two targets alternating.
  await calls(scenario.direct, 20);
  await calls(scenario.gateway, 20);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const kind of ['direct', 'gateway']) results[kind].push(...(await calls(scenario[kind], scenario.calls, scenario.gapMs)));
  }
  // The probes write every 100 ms.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const direct = results.direct.map((call) => parts('direct', call, scenario.stream));
  const through = results.gateway.map((call) => parts('gateway', call, scenario.stream));
  const names = [...new Set([...Object.keys(through[0] ?? {}), ...Object.keys(direct[0] ?? {})])];
  const fmt = (v) => (Number.isFinite(v) ? v.toFixed(2) : '–');
  console.log(`### ${scenario.name} (medians of ${results.gateway.length} calls, ms)\n`);
  console.log('| part | direct | gateway |\n|---|--:|--:|');
  for (const name of names) {
    const d = median(direct.map((p) => p[name]));
    const g = median(through.map((p) => p[name]));
    console.log(`| ${name} | ${fmt(d)} | ${fmt(g)} |`);
  }
  console.log('');
}
process.exit(0);
