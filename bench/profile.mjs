#!/usr/bin/env node
// CPU profile of the one-process gateway at load: starts a zero-latency upstream and the gateway
// with --cpu-prof, sends PROFILE_SECONDS of plain calls at 50 connections, stops the gateway
// (which writes the profile) and prints the self time by package and the top functions.
// Usage: npm run build && node bench/profile.mjs   (PROFILE_SECONDS=10, PROFILE_STREAM=1 for streams,
// PROFILE_SAVE=file.cpuprofile keeps the profile, PROFILE_CALLERS=name prints which of the gateway's
// functions the self time of functions so named is spent for)
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedLoop, target } from './lib/load.mjs';
import { start, stopAll } from './lib/procs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const STREAM = process.env.PROFILE_STREAM === '1';
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const tmp = mkdtempSync(join(tmpdir(), 'gateway-profile-'));
const children = [];
process.on('exit', () => {
  stopAll(children);
  rmSync(tmp, { recursive: true, force: true });
});
const json = (line) => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};

const upstream = await start([join(root, 'bench/lib/upstream.mjs')], { ready: json, name: 'upstream' });
children.push(upstream.child);
writeFileSync(
  join(tmp, 'gateway.yaml'),
  `
groups:
  - id: bench-fast
    mode: chat
    max_input_tokens: 100000
    max_output_tokens: 4096
    price: { input_per_mtok: 0.15, output_per_mtok: 0.6 }
    deployments: [{ provider: openai, model: bench-model, api_base: "${upstream.value.fast}/v1", api_key_env: BENCH_UPSTREAM_KEY }]
`,
);
const profiles = join(tmp, 'profiles');
const spawnedAt = performance.now();
const gateway = await start(['--cpu-prof', `--cpu-prof-dir=${profiles}`, join(root, 'packages/cli/bin/gateway.js'), 'start'], {
  env: {
    GATEWAY_CONFIG: join(tmp, 'gateway.yaml'),
    GATEWAY_DATA_DIR: join(tmp, 'data'),
    ADMIN_TOKEN,
    BENCH_UPSTREAM_KEY: 'bench-credential',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
  },
  name: 'gateway',
  ready: (line) => json(line)?.msg === 'gateway ready' && json(line).listening,
});
const url = gateway.value;
const created = await fetch(`${url}/admin/v1/keys`, {
  method: 'POST',
  headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'profile', models: ['bench-fast'], budget_usd: 1e6 }),
});
const { key } = await created.json();
const body = JSON.stringify({
  model: 'bench-fast',
  messages: [{ role: 'user', content: 'Hello there' }],
  ...(STREAM ? { stream: true } : {}),
});
const t = target(url, '/v1/chat/completions', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body);
await closedLoop(t, { connections: 50, durationMs: 2000, stream: STREAM });
// Only the samples taken under the measured load count (not the start, nor the warm-up).
const loadFrom = performance.now() - spawnedAt;
const result = await closedLoop(t, { connections: 50, durationMs: SECONDS * 1000, stream: STREAM });
const loadTo = performance.now() - spawnedAt;
process.stderr.write(`${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms, errors ${result.errors}\n`);
await new Promise((resolve) => {
  gateway.child.once('exit', resolve);
  gateway.child.kill('SIGTERM');
});

const file = readdirSync(profiles).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8'));
if (process.env.PROFILE_SAVE) copyFileSync(join(profiles, file), process.env.PROFILE_SAVE);
const self = new Map(profile.nodes.map((n) => [n.id, 0]));
const deltas = profile.timeDeltas;
let at = 0;
profile.samples.forEach((id, i) => {
  at += deltas[i] ?? 0;
  const ms = at / 1000;
  if (ms >= loadFrom && ms <= loadTo) self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byPackage = new Map();
const byFunction = new Map();
const bucket = (url) => {
  if (!url) return '(native, gc, idle)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const g = /\/(packages|services)\/([^/]+)\//.exec(url);
  if (g) return `gateway ${g[1]}/${g[2]}`;
  return url;
};
for (const node of profile.nodes) {
  const us = self.get(node.id) ?? 0;
  const { url, functionName, lineNumber } = node.callFrame;
  const name = node.callFrame.functionName === '(idle)' ? '(idle)' : bucket(url);
  byPackage.set(name, (byPackage.get(name) ?? 0) + us);
  const fn = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1)}%`;
console.log('| where | self time |\n|---|--:|');
for (const [name, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`| ${name} | ${pct(us)} |`);
console.log('\n| function | self time |\n|---|--:|');
for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`| ${name} | ${pct(us)} |`);

// The nearest frames of the gateway's own code above the named functions' samples.
if (process.env.PROFILE_CALLERS) {
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const callers = new Map();
  let named = 0;
  for (const node of profile.nodes) {
    if (node.callFrame.functionName !== process.env.PROFILE_CALLERS) continue;
    const us = self.get(node.id) ?? 0;
    named += us;
    const chain = [];
    for (let up = parent.get(node.id); up && chain.length < 3; up = parent.get(up.id)) {
      const { url, functionName, lineNumber } = up.callFrame;
      if (/\/(packages|services)\//.test(url) && !url.includes('node_modules'))
        chain.push(`${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`);
    }
    const name = chain.join(' < ') || '(no gateway frame)';
    callers.set(name, (callers.get(name) ?? 0) + us);
  }
  console.log(`\n| ${process.env.PROFILE_CALLERS} (${pct(named)} in all), called for | self time |\n|---|--:|`);
  for (const [name, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`| ${name} | ${pct(us)} |`);
}
