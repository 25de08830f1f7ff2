#!/usr/bin/env node
// What a wake-up costs here, and how often the one-process gateway's threads wake per call.
//
// 1. A process that does nothing but sleep and wake (a Node timer; the same loop in Python,
//    for a baseline without V8), every 10 ms and every 1 ms: its CPU time per wake-up, from
//    /proc/self/task/*/schedstat (nanoseconds on a core, timeslices). On a virtual machine whose
//    idle vCPUs halt, the longer a thread slept, the more its next run costs.
// 2. The gateway (`gateway start`) at 300 calls per second and one call at a time, sent to the
//    zero-latency upstream: per thread (the event loop, V8's helpers, libuv's pool, the store's
//    checkpointer), its CPU per call and how often it went to sleep per call (voluntary context
//    switches: each one is a wake-up to come).
//
// Usage: npm run build && node bench/wakeups.mjs
//   WAKEUPS_SECONDS=6   length of the 300 req/s run (one at a time: 500 × it calls)
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeChatConfig } from './lib/config.mjs';
import { fixedRate, sequential, target } from './lib/load.mjs';
import { createKey, scratchDir, startGateway, startUpstream } from './lib/start.mjs';

const SECONDS = Number(process.env.WAKEUPS_SECONDS ?? 6);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const UPSTREAM_KEY = 'bench-credential';
const tmp = scratchDir('gateway-wakeups-');

// --- 1. a wake-up alone ------------------------------------------------------------------------
const NODE_SLEEPER = `
const { readFileSync } = require('node:fs');
const stat = () => readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ').map(Number);
const every = Number(process.argv[1]);
const timer = setInterval(() => {}, every);
setTimeout(() => {
  const a = stat();
  setTimeout(() => {
    const b = stat();
    clearInterval(timer);
    console.log(JSON.stringify({ ns: b[0] - a[0], slices: b[2] - a[2] }));
  }, 3000);
}, 500);
`;
const PYTHON_SLEEPER = `
import json, sys, time
stat = lambda: [int(x) for x in open('/proc/self/schedstat').read().split()]
every = float(sys.argv[1]) / 1000
end = time.time() + 0.5
while time.time() < end: time.sleep(every)
a = stat(); end = time.time() + 3
while time.time() < end: time.sleep(every)
b = stat()
print(json.dumps({'ns': b[0] - a[0], 'slices': b[2] - a[2]}))
`;

function sleeper(command, args) {
  try {
    return JSON.parse(execFileSync(command, args, { encoding: 'utf8' }));
  } catch {
    return undefined;
  }
}

const alone = [];
for (const every of [10, 1]) {
  for (const [name, run] of /** @type {[string, () => any][]} */ ([
    [`Node ${process.version}, a timer`, () => sleeper(process.execPath, ['-e', NODE_SLEEPER, String(every)])],
    ['Python, time.sleep', () => sleeper('python3', ['-c', PYTHON_SLEEPER, String(every)])],
  ])) {
    const r = run();
    if (r) alone.push({ every, name, perWakeUs: r.ns / r.slices / 1e3, wakesPerSecond: r.slices / 3 });
  }
}
console.log('#### A process that only sleeps and wakes (CPU per wake-up)\n');
console.log('| sleeps | process | wake-ups/s | CPU µs per wake-up |');
console.log('| --- | --- | --: | --: |');
for (const r of alone) console.log(`| ${r.every} ms | ${r.name} | ${r.wakesPerSecond.toFixed(0)} | ${r.perWakeUs.toFixed(0)} |`);

// --- 2. the gateway's threads -------------------------------------------------------------------
const upstream = await startUpstream();
const configPath = writeChatConfig(join(tmp, 'gateway.yaml'), [{ id: 'bench-fast', url: upstream.fast }]);
const gateway = await startGateway({
  mode: 'one',
  env: {
    GATEWAY_CONFIG: configPath,
    ADMIN_TOKEN,
    BENCH_UPSTREAM_KEY: UPSTREAM_KEY,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    GATEWAY_DATA_DIR: join(tmp, 'data'),
  },
});
const url = gateway.url;
const key = await createKey(url, ADMIN_TOKEN);
const call = target(
  url,
  '/v1/chat/completions',
  { authorization: `Bearer ${key}` },
  JSON.stringify({
    model: 'bench-fast',
    messages: [{ role: 'user', content: 'Say hello in one short sentence, please.' }],
    max_tokens: 64,
  }),
);

/** Per thread of the gateway: name, nanoseconds on a core, voluntary context switches. */
function threads(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      const sleeps = Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))?.[1] ?? 0);
      out.set(tid, { name, ns, sleeps });
    } catch {
      // A thread that ended between the listing and the reads.
    }
  }
  return out;
}

await sequential(call, { count: 2000 });
console.log(`\n#### The one-process gateway's threads, per call (Node ${process.version})\n`);
console.log('| load | thread | CPU µs per call | sleeps per call |');
console.log('| --- | --- | --: | --: |');
for (const [load, run] of /** @type {[string, () => Promise<any>][]} */ ([
  ['300 req/s', () => fixedRate(call, { rate: 300, durationMs: SECONDS * 1000 })],
  ['one at a time', () => sequential(call, { count: 500 * SECONDS })],
])) {
  const before = threads(gateway.child.pid);
  const result = await run();
  const after = threads(gateway.child.pid);
  if (result.errors > 0) throw new Error(`${result.errors} calls failed`);
  // Threads of one kind (V8's helpers, libuv's pool) summed.
  const byName = new Map();
  for (const [tid, now] of after) {
    const was = before.get(tid) ?? { ns: 0, sleeps: 0 };
    const sum = byName.get(now.name) ?? { ns: 0, sleeps: 0, count: 0 };
    byName.set(now.name, { ns: sum.ns + now.ns - was.ns, sleeps: sum.sleeps + now.sleeps - was.sleeps, count: sum.count + 1 });
  }
  let ns = 0;
  let sleeps = 0;
  for (const [name, sum] of byName) {
    ns += sum.ns;
    sleeps += sum.sleeps;
    if (sum.ns / result.requests < 500 && sum.sleeps / result.requests < 0.005) continue;
    const label = sum.count > 1 ? `${name} (${sum.count})` : name;
    console.log(`| ${load} | ${label} | ${(sum.ns / result.requests / 1e3).toFixed(0)} | ${(sum.sleeps / result.requests).toFixed(2)} |`);
  }
  console.log(`| ${load} | all | ${(ns / result.requests / 1e3).toFixed(0)} | ${(sleeps / result.requests).toFixed(2)} |`);
}
process.exit(0);
