#!/usr/bin/env node
// Store benchmark: the embedded SQLite store ("after", this tree) against the previous release's
// nedb store ("before", a built checkout at BENCH_BEFORE), alternating between them in one run.
// Any built checkout can be "before", an earlier SQLite release too; the start stage seeds a nedb
// folder for "before", so leave it out for one of those (`BENCH_STAGES=memory,tail,cpu`).
//
//   1. memory: one-process RSS and data-folder size after 20k / 100k / 200k billed chat calls
//      (closed loop, 50 connections), and the one-process CPU, file and socket reads and writes
//      and bytes written per call over those calls;
//   2. tail:   added p50 / p99 at a fixed 300 req/s, gateway against the yardstick and direct;
//   3. cpu:    CPU per call of every process in separate mode over a real nats-server;
//   4. start:  spawn to `gateway ready`, empty and with a seeded folder (1M ledger entries over
//      1,000 keys, 100k video tasks), the seeding timed on its own.
//
// Usage: npx tsc -b && node bench/store.mjs
//   BENCH_BEFORE=/tmp/before  BENCH_STAGES=memory,tail,cpu,start
//   BENCH_CHECKPOINTS=20000,100000,200000  BENCH_CONNECTIONS=50  BENCH_CHUNK_SECONDS=15
//   BENCH_TAIL_RATE=300  BENCH_TAIL_SECONDS=10  BENCH_TAIL_ROUNDS=3
//   BENCH_CPU_SECONDS=10  BENCH_CPU_ROUNDS=2
//   BENCH_LEDGER=1000000  BENCH_KEYS=1000  BENCH_TASKS=100000  BENCH_BEFORE_LEDGER (default BENCH_LEDGER)
//   BENCH_START_RUNS=3  BENCH_SERVING_SECONDS=5 (fixed-rate calls right after the first start of each;
//     a gateway still answering BENCH_SERVING_CUTOFF=20 s later is killed)
//   BENCH_SEED_CACHE=DIR (keep the seeded folders there and reuse them next time)
//   BENCH_LOADGEN=js (the JavaScript load generator even where wrk is installed)
//   BENCH_PROBE=1 (diagnosis: bench/lib/store-probe.cjs in the one-process gateways; the tail stage then
//     prints event-loop delay, GC pauses and slow store calls of each gateway run; with STORE_PROBE_HEAP=1
//     also where the allocations that survive a scavenge come from — that profiler slows the gateway)
// Tables go to stderr, one JSON line with every figure to stdout.
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { closedLoop, fixedRate, target } from './lib/load.mjs';
import { json, writeChatConfig } from './lib/config.mjs';
import { cpuSeconds, ioCounts, rssMiB } from './lib/procs.mjs';
import { createKey as createBenchKey, freePort, start, startNats as startNatsServer, startUpstream, startYardstick } from './lib/start.mjs';
import { wrkAvailable, wrkClosedLoop } from './lib/wrk.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const num = (name, fallback) => Number(env[name] ?? fallback);
const BEFORE = resolve(env.BENCH_BEFORE ?? '/tmp/before');
const STAGES = (env.BENCH_STAGES ?? 'memory,tail,cpu,start').split(',');
const CHECKPOINTS = (env.BENCH_CHECKPOINTS ?? '20000,100000,200000').split(',').map(Number);
const CONNECTIONS = num('BENCH_CONNECTIONS', 50);
const CHUNK_SECONDS = num('BENCH_CHUNK_SECONDS', 15);
const TAIL_RATE = num('BENCH_TAIL_RATE', 300);
const TAIL_SECONDS = num('BENCH_TAIL_SECONDS', 10);
const TAIL_ROUNDS = num('BENCH_TAIL_ROUNDS', 3);
const CPU_SECONDS = num('BENCH_CPU_SECONDS', 10);
const CPU_ROUNDS = num('BENCH_CPU_ROUNDS', 2);
const SEED = { keys: num('BENCH_KEYS', 1000), ledger: num('BENCH_LEDGER', 1_000_000), tasks: num('BENCH_TASKS', 100_000) };
const BEFORE_LEDGER = num('BENCH_BEFORE_LEDGER', SEED.ledger);
const START_RUNS = num('BENCH_START_RUNS', 3);
const SERVING_SECONDS = num('BENCH_SERVING_SECONDS', 5);
const PROBE = env.BENCH_PROBE === '1';
const SERVING_CUTOFF = num('BENCH_SERVING_CUTOFF', 20);
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const RETENTION_SECONDS = 7 * 24 * 3600; // the video default; tasks are kept that long

const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : '-');
const mib = (bytes) => (bytes === undefined ? '-' : `${fmt(bytes / 1048576, 1)} MiB`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

// =============================================================================================
// Seeding (runs in a child process: `node bench/store.mjs seed-after|seed-before DIR NOW`)
// =============================================================================================

/** mulberry32: the same data for both releases. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seeded data, in the shapes of this tree's domain types: KeyRecord
 * (services/accounting/src/domain/keys.ts), LedgerEntry and GroupUsageRecord (ledger.ts),
 * TaskRecord (services/video/src/domain/tasks.ts). Yields [collection, doc] for every document; ledger entries stream, keys and usage rows (whose totals sum the ledger) come last.
 */
function* generate({ keys: keyCount, ledger: ledgerCount, tasks: taskCount }, now) {
  const rand = prng(20261121);
  const hex = (n) => {
    let s = '';
    while (s.length < n)
      s += Math.floor(rand() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, n);
  };
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const keyIds = Array.from(
    { length: keyCount },
    (_, i) => `key_${i.toString(36).padStart(4, '0')}${Buffer.from(hex(18), 'hex').toString('base64url')}`,
  );
  const spent = new Map(keyIds.map((id) => [id, 0]));
  const usage = new Map();
  const day = 86_400_000;
  const count = (entry) => {
    spent.set(entry.key_id, spent.get(entry.key_id) + entry.cost_nano_usd);
    const id = `${entry.key_id}|${entry.group}`;
    const u = usage.get(id) ?? { _id: id, key_id: entry.key_id, group: entry.group, spent_nano_usd: 0, requests: 0 };
    u.spent_nano_usd += entry.cost_nano_usd;
    u.requests += 1;
    usage.set(id, u);
  };
  let ledgerLeft = ledgerCount;
  // Video jobs of the last day, mostly completed and billed; each billed one has its ledger entry.
  for (let i = 0; i < taskCount; i += 1) {
    const ark = rand() < 0.6;
    const created = now - Math.floor(rand() * (day - 60_000)) - 60_000;
    const updated = created + 60_000 + Math.floor(rand() * 240_000);
    const done = Math.min(updated, now - 1000);
    const failed = rand() < 0.05;
    const seconds = pick([5, 10]);
    const tokens = ark ? seconds * 21780 : null;
    const cost = failed ? null : ark ? tokens * 10700 : seconds * 80_000_000;
    const id = `video_${i.toString(16).padStart(8, '0')}${hex(24)}`;
    const task = {
      _id: id,
      key_id: pick(keyIds),
      model: ark ? 'beta-dance' : 'alpha-h3',
      group: ark ? 'beta-dance' : 'alpha-h3',
      provider: ark ? 'ark' : 'minimax',
      deployment: 0,
      provider_task_id: ark ? `cgt-${hex(20)}` : String(Math.floor(rand() * 1e15)),
      status: failed ? 'failed' : 'completed',
      progress: failed ? 0 : 100,
      seconds,
      resolution: ark ? '720p' : '768P',
      ratio: '16:9',
      size: failed ? null : ark ? '1280x720' : '1366x768',
      error_message: failed ? 'The request was rejected by content moderation.' : null,
      total_tokens: failed ? null : tokens,
      video_url: failed
        ? null
        : `https://${ark ? 'ark-content-cn-beijing.tos-cn-beijing.volces.com' : 'public-cdn-video-data-algeng.oss-cn-wulanchabu.aliyuncs.com'}/${hex(16)}/${hex(32)}.mp4?X-Tos-Algorithm=TOS4-HMAC-SHA256&X-Tos-Date=20261121T000000Z&X-Tos-Expires=86400&X-Tos-Signature=${hex(64)}`,
      video_url_at: failed ? null : new Date(done),
      video_url_downloads: failed ? 0 : Math.floor(rand() * 3),
      created_at: new Date(created),
      updated_at: new Date(done),
      completed_at: new Date(done),
      billing: failed ? 'free' : 'billed',
      cost_nano_usd: cost,
      next_poll_at: new Date(done + 3000),
      poll_failures: 0,
      lease_until: null,
    };
    yield ['video_tasks', task];
    if (!failed && ledgerLeft > 0) {
      ledgerLeft -= 1;
      const entry = {
        _id: id,
        key_id: task.key_id,
        group: task.group,
        kind: 'video',
        cost_nano_usd: cost,
        occurred_at: new Date(done),
        recorded_at: new Date(done + 2),
        usage: tokens === null ? { seconds } : { seconds, total_tokens: tokens },
      };
      count(entry);
      yield ['accounting_ledger', entry];
    }
  }
  // Chat calls of the last 30 days.
  const chatGroups = [
    ['gamma-flash', 140, 280],
    ['gamma-flash', 140, 280],
    ['gamma-flash', 140, 280],
    ['gamma-v4-pro', 550, 2190],
  ];
  for (let i = 0; i < ledgerLeft; i += 1) {
    const [group, inPrice, outPrice] = pick(chatGroups);
    const occurred = now - Math.floor(rand() * 30 * day);
    const prompt = 20 + Math.floor(rand() * 3000);
    const completion = 5 + Math.floor(rand() * 900);
    const entry = {
      _id: `chatcmpl-${i.toString(16).padStart(8, '0')}${hex(24)}`,
      key_id: pick(keyIds),
      group,
      kind: 'chat',
      cost_nano_usd: prompt * inPrice + completion * outPrice,
      occurred_at: new Date(occurred),
      recorded_at: new Date(occurred + 3),
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    };
    count(entry);
    yield ['accounting_ledger', entry];
  }
  for (const [i, id] of keyIds.entries()) {
    const budget = 1_000_000 * 1e9;
    const secret = `sk-seed-${i.toString().padStart(6, '0')}-0123456789abcdef`;
    yield [
      'accounting_keys',
      {
        _id: id,
        hash: createHash('sha256').update(secret).digest('hex'),
        hint: `sk-…${secret.slice(-4)}`,
        name: `seed key ${i}`,
        models: ['*'],
        budget_nano_usd: budget,
        rpm: 0,
        tpm: 0,
        created_at: new Date(now - 40 * day + i * 1000),
        revoked_at: null,
        spent_nano_usd: spent.get(id),
        reserved_nano_usd: 0,
        available_nano_usd: budget - spent.get(id),
      },
    ];
  }
  for (const row of usage.values()) yield ['accounting_usage', row];
}

/** The indexes the services declared when this was written (KeyRepository, Ledger, TaskRepository .open); the seeding asks the repositories themselves first. Built after the rows, one pass each. */
const INDEXES = {
  accounting_keys: [{ field: 'hash', unique: true }, { field: 'created_at' }],
  accounting_ledger: [{ field: 'key_id' }],
  accounting_usage: [{ field: 'key_id' }],
  video_tasks: [{ field: 'created_at', expireAfterSeconds: RETENTION_SECONDS }, { field: 'next_poll_at' }, { field: 'key_id' }],
};

async function seedAfter(dir, now) {
  const { SqliteStore } = await import(pathToFileURL(join(root, 'packages/store/dist/index.js')).href);
  const started = performance.now();
  const store = new SqliteStore(dir);
  const collections = {};
  for (const name of Object.keys(INDEXES)) collections[name] = await store.collection(name);
  let batch = [];
  const flush = async () => {
    const docs = batch;
    batch = [];
    await store.atomically(async () => {
      for (const [name, doc] of docs) await collections[name].insertOne(doc);
    });
  };
  for (const item of generate(SEED, now)) {
    batch.push(item);
    if (batch.length >= 20_000) await flush();
  }
  await flush();
  const inserted = performance.now();
  // The indexes as this tree's repositories declare them (their `open`), so that the first start
  // finds them built; INDEXES when those modules cannot be loaded.
  const load = (path) => import(pathToFileURL(join(root, path)).href);
  let repositories;
  try {
    const [{ KeyRepository }, { Ledger }, { TaskRepository }] = await Promise.all([
      load('services/accounting/dist/domain/keys.js'),
      load('services/accounting/dist/domain/ledger.js'),
      load('services/video/dist/domain/tasks.js'),
    ]);
    await KeyRepository.open(store, { groups: [] });
    await Ledger.open(store, undefined);
    repositories = { tasks: await TaskRepository.open(store, RETENTION_SECONDS) };
  } catch {
    for (const [name, indexes] of Object.entries(INDEXES)) await store.collection(name, indexes);
  }
  const indexed = performance.now();
  // The video poller's query (TaskRepository.due, every 1.5 s) on the seeded tasks, none of them due.
  const tasks = await store.collection('video_tasks', INDEXES.video_tasks);
  const dueTimes = [];
  for (let i = 0; i < 5; i += 1) {
    const t0 = performance.now();
    const at = new Date();
    if (repositories) await repositories.tasks.due(8, at);
    else
      await tasks.find(
        {
          status: { $in: ['queued', 'in_progress', 'running'] },
          next_poll_at: { $lte: at },
          created_at: { $gt: new Date(at.getTime() - RETENTION_SECONDS * 1000) },
        },
        { sort: { next_poll_at: 1 }, limit: 8 },
      );
    dueTimes.push(performance.now() - t0);
  }
  // close() waits for the store's checkpointer thread, which does not keep the process alive by
  // itself: without this timer the script would end (exit code 13) before the close completes.
  const alive = setInterval(() => {}, 1000);
  await store.close();
  clearInterval(alive);
  return {
    insertSeconds: (inserted - started) / 1000,
    indexSeconds: (indexed - inserted) / 1000,
    seconds: (performance.now() - started) / 1000,
    pollerDueQueryMs: median(dueTimes),
    indexesFrom: repositories ? "the repositories' open()" : 'INDEXES in bench/store.mjs',
  };
}

/** nedb's own file format, written directly: one document per line, Dates as {"$$date": ms}. */
async function seedBefore(dir, now) {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  const files = {};
  const buffers = {};
  /** @this {any} */
  const replacer = function (key, value) {
    const raw = this[key];
    return raw instanceof Date ? { $$date: raw.getTime() } : value;
  };
  const write = (name) => {
    if (buffers[name].length) writeSync(files[name], `${buffers[name].join('\n')}\n`);
    buffers[name] = [];
  };
  for (const [name, doc] of generate({ ...SEED, ledger: BEFORE_LEDGER }, now)) {
    if (!files[name]) {
      files[name] = openSync(join(dir, `${name}.db`), 'w');
      buffers[name] = [];
    }
    buffers[name].push(JSON.stringify(doc, replacer));
    if (buffers[name].length >= 10_000) write(name);
  }
  for (const name of Object.keys(files)) {
    write(name);
    closeSync(files[name]);
  }
  return { seconds: (performance.now() - started) / 1000 };
}

if (process.argv[2] === 'seed-after' || process.argv[2] === 'seed-before') {
  const [, , mode, dir, now] = process.argv;
  const result = await (mode === 'seed-after' ? seedAfter : seedBefore)(dir, Number(now));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // Stays until the benchmark has read the line and stops it (an exit could overtake the line).
  setTimeout(() => process.exit(0), 60_000);
} else {
  // =============================================================================================
  // The benchmark
  // =============================================================================================

  if (!existsSync(join(BEFORE, 'packages/cli/bin/gateway.js'))) throw new Error(`no built release at ${BEFORE} (BENCH_BEFORE)`);
  const RELEASES = {
    after: { cli: join(root, 'packages/cli/bin/gateway.js') },
    before: { cli: join(BEFORE, 'packages/cli/bin/gateway.js') },
  };
  const tmp = mkdtempSync(join(tmpdir(), 'gateway-store-bench-'));
  const children = new Set();
  const extraPids = new Set();

  /** SIGTERM, then SIGKILL after `ms`; resolves when the process is gone. */
  function stopChild(child, ms = 20_000) {
    children.delete(child);
    child.removeAllListeners('exit');
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolveStop) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      child.once('exit', () => {
        clearTimeout(timer);
        resolveStop();
      });
      child.kill('SIGTERM');
    });
  }
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  async function cleanup() {
    await Promise.all([...children].map((c) => stopChild(c, 5000)));
    for (const pid of extraPids)
      if (alive(pid))
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
    rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  process.on('exit', () => {
    for (const c of children) c.kill('SIGKILL');
    for (const pid of extraPids)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    rmSync(tmp, { recursive: true, force: true });
  });
  process.on('SIGINT', () => {
    cleanup().finally(() => process.exit(130));
  });
  process.on('SIGTERM', () => {
    cleanup().finally(() => process.exit(143));
  });

  const benchStarted = performance.now();
  const upstream = await startUpstream();
  children.add(upstream.child);
  const urls = { fast: upstream.fast, spaced: upstream.spaced };
  const yardstick = await startYardstick(urls);
  children.add(yardstick.child);

  const configPath = writeChatConfig(join(tmp, 'gateway.yaml'), [{ id: 'bench-fast', url: urls.fast }]);
  const baseEnv = {
    NODE_OPTIONS: env.BENCH_GATEWAY_NODE_OPTIONS ?? '',
    GATEWAY_CONFIG: configPath,
    ADMIN_TOKEN,
    BENCH_UPSTREAM_KEY: 'bench-credential',
    LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    // Several gateways run at once; none needs the default metrics port.
    METRICS_PORT: '0',
  };

  /** `gateway start` of one release, one process; resolves to {url, pid, child, startMs}. */
  async function startOne(release, dataDir, extraEnv = {}) {
    const t0 = performance.now();
    const g = await start([RELEASES[release].cli, 'start'], {
      env: { ...baseEnv, PORT: '0', GATEWAY_DATA_DIR: dataDir, ...extraEnv },
      name: `gateway (${release})`,
      timeoutMs: 300_000,
      ready: (line) => json(line)?.msg === 'gateway ready' && json(line).listening,
    });
    const startMs = performance.now() - t0;
    children.add(g.child);
    return { url: g.value, pid: g.child.pid, child: g.child, startMs, dataDir, release };
  }

  /** A nats-server with JetStream on a free port and its own store folder. */
  async function startNats(name) {
    const nats = await startNatsServer(tmp, { storeDir: join(tmp, `nats-${name}`) });
    children.add(nats.child);
    return nats;
  }

  /** `gateway start --separate --auto-ports` over its own nats-server; resolves to {url, pids, stop}. */
  async function startSeparate(release) {
    const nats = await startNats(release);
    const s = await start([RELEASES[release].cli, 'start', '--separate', '--auto-ports'], {
      // --auto-ports leaves the first edge on PORT.
      env: { ...baseEnv, NATS_URL: nats.url, PORT: String(await freePort()), GATEWAY_DATA_DIR: join(tmp, `${release}-separate`) },
      name: `gateway --separate (${release})`,
      ready: (line) => (json(line)?.msg === 'gateway ready' ? json(line) : undefined),
    });
    children.add(s.child);
    const pids = Object.fromEntries(Object.entries(s.value.pids).map(([n, pid]) => [n.replace(/-1$/, ''), pid]));
    for (const pid of Object.values(pids)) extraPids.add(pid);
    pids.supervisor = s.child.pid;
    pids['nats-server'] = nats.child.pid;
    return {
      url: s.value.listening,
      pids,
      release,
      stop: async () => {
        await stopChild(s.child);
        await stopChild(nats.child);
      },
    };
  }

  /** A key of its own on the gateway at `url`. */
  const createKey = (url) => createBenchKey(url, ADMIN_TOKEN);

  /** Calls the key's ledger shows (GET /v1/usage, by_model requests of bench-fast). */
  async function billed(url, key) {
    /** @type {any} */
    const usage = await (await fetch(`${url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
    return usage.by_model?.find((m) => m.model === 'bench-fast')?.requests ?? 0;
  }

  /** Waits until the ledger shows at least `atLeast` calls and stops moving (spend is applied after the answer). */
  async function settle(url, key, atLeast, ms = 20_000) {
    const end = performance.now() + ms;
    let last = -1;
    for (;;) {
      const n = await billed(url, key);
      if ((n >= atLeast && n === last) || performance.now() > end) return n;
      last = n;
      await sleep(250);
    }
  }

  function dataFiles(dir) {
    if (!existsSync(dir)) return {};
    return Object.fromEntries(
      readdirSync(dir)
        .filter((f) => /\.db(-wal|-shm)?$/.test(f))
        .map((f) => [f, statSync(join(dir, f)).size]),
    );
  }
  const sumSizes = (files) => Object.values(files).reduce((a, b) => a + b, 0);
  function describeFiles(files) {
    if (files['gateway.db'] !== undefined) return `gateway.db ${mib(files['gateway.db'])}, -wal ${mib(files['gateway.db-wal'] ?? 0)}`;
    const ledger = files['accounting_ledger.db'];
    return `*.db ${mib(sumSizes(files))} (ledger ${mib(ledger)}, ${Object.keys(files).length} files)`;
  }

  const messages = [{ role: 'user', content: 'Say hello in one short sentence, please.' }];
  const body = JSON.stringify({ model: 'bench-fast', messages, max_tokens: 64 });
  const gatewayTarget = (url, key) => target(url, '/v1/chat/completions', { authorization: `Bearer ${key}` }, body);

  const useWrk = env.BENCH_LOADGEN !== 'js' && (await wrkAvailable());
  const saturate = (t, seconds) =>
    useWrk
      ? wrkClosedLoop(t, { connections: CONNECTIONS, durationMs: seconds * 1000 })
      : closedLoop(t, { connections: CONNECTIONS, durationMs: seconds * 1000 });
  log(`load generator at ${CONNECTIONS} connections: ${useWrk ? 'wrk' : 'JavaScript (undici)'}; before = ${BEFORE}`);

  function table(headers, rows) {
    const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
    const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
    log(line(headers));
    log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const r of rows) log(line(r));
  }

  const results = {
    machine: { cores: (await import('node:os')).cpus().length, node: process.version, loadgen: useWrk ? 'wrk' : 'js' },
    settings: { CHECKPOINTS, CONNECTIONS, TAIL_RATE, TAIL_SECONDS, TAIL_ROUNDS, CPU_SECONDS, CPU_ROUNDS, SEED, BEFORE_LEDGER, START_RUNS },
  };
  const goals = [];

  // ---------------------------------------------------------------------------------------------
  // 1. Memory (and one-process CPU per call); 2. tail, on the same processes afterwards.
  // ---------------------------------------------------------------------------------------------
  if (STAGES.includes('memory') || STAGES.includes('tail')) {
    const gw = {};
    for (const release of ['after', 'before']) {
      const probe = PROBE
        ? {
            NODE_OPTIONS: `${baseEnv.NODE_OPTIONS} --require ${join(root, 'bench/lib/store-probe.cjs')}`.trim(),
            STORE_PROBE_OUT: join(tmp, `probe-${release}.json`),
            STORE_PROBE_SQL: release === 'after' ? '1' : '0',
          }
        : {};
      gw[release] = await startOne(release, join(tmp, `${release}-one`), probe);
      gw[release].probeOut = probe.STORE_PROBE_OUT;
      gw[release].key = await createKey(gw[release].url);
      gw[release].target = gatewayTarget(gw[release].url, gw[release].key);
    }
    log(
      `\n== one process: ${Object.values(gw)
        .map((g) => `${g.release} pid ${g.pid}`)
        .join(', ')} ==`,
    );

    if (STAGES.includes('memory')) {
      log(
        `\n1. Memory: RSS after N billed chat calls (closed loop, ${CONNECTIONS} connections, alternating chunks of at most ${CHUNK_SECONDS} s)`,
      );
      const state = {};
      for (const release of ['after', 'before']) {
        const g = gw[release];
        const rss0 = rssMiB(g.pid);
        const files0 = dataFiles(g.dataDir);
        const r = await saturate(g.target, 2); // warm-up; its calls count like the others
        const billed0 = await settle(g.url, g.key, Math.floor(r.requests * 0.99) - r.errors);
        state[release] = {
          sent: r.requests,
          errors: r.errors,
          rate: r.rps,
          cpu0: cpuSeconds(g.pid),
          io0: ioCounts(g.pid),
          billed0,
          rows: [],
          elapsed: 0,
        };
        state[release].rows.push({ checkpoint: 0, billed: 0, rssMiB: rss0, files: files0 });
      }
      const lastBilled = { after: state.after.billed0, before: state.before.billed0 };
      const lastCpu = { after: state.after.cpu0, before: state.before.cpu0 };
      const lastIo = { after: state.after.io0, before: state.before.io0 };
      for (const checkpoint of CHECKPOINTS) {
        // Alternate chunks until both releases have sent `checkpoint` calls.
        while (['after', 'before'].some((rel) => state[rel].sent < checkpoint)) {
          for (const release of ['after', 'before']) {
            const s = state[release];
            if (s.sent >= checkpoint) continue;
            const seconds = Math.max(1, Math.min(CHUNK_SECONDS, Math.ceil((checkpoint - s.sent) / Math.max(1, s.rate))));
            const r = await saturate(gw[release].target, seconds);
            s.sent += r.requests;
            s.errors += r.errors;
            s.elapsed += seconds;
            if (r.rps > 0) s.rate = r.rps;
          }
        }
        for (const release of ['after', 'before']) {
          const g = gw[release];
          const s = state[release];
          const n = await settle(g.url, g.key, Math.floor(s.sent * 0.99) - s.errors, 15_000);
          await sleep(500);
          const cpu = cpuSeconds(g.pid);
          const io = ioCounts(g.pid);
          const calls = Math.max(1, n - lastBilled[release]);
          const row = {
            checkpoint,
            sent: s.sent,
            errors: s.errors,
            billed: n,
            rssMiB: rssMiB(g.pid),
            files: dataFiles(g.dataDir),
            rps: s.rate,
            cpuUsPerCall: ((cpu - lastCpu[release]) * 1e6) / calls,
            // Reads and writes of files and sockets together: the calls' own socket I/O is the
            // same in both releases, so a difference is the store's.
            readsPerCall: (io.reads - lastIo[release].reads) / calls,
            writesPerCall: (io.writes - lastIo[release].writes) / calls,
            writtenKiBPerCall: (io.writtenBytes - lastIo[release].writtenBytes) / 1024 / calls,
          };
          lastCpu[release] = cpu;
          lastIo[release] = io;
          lastBilled[release] = n;
          s.rows.push(row);
          log(
            `  ${release.padEnd(6)} ${fmt(n, 0).padStart(8)} billed calls  RSS ${fmt(row.rssMiB)} MiB  ${describeFiles(row.files)}  ${fmt(row.rps, 0)} req/s last chunk  cpu ${fmt(row.cpuUsPerCall, 0)} µs/call since last point  I/O per call ${fmt(row.readsPerCall)} reads, ${fmt(row.writesPerCall)} writes, ${fmt(row.writtenKiBPerCall)} KiB written  errors ${s.errors}`,
          );
        }
      }
      log('');
      table(
        [
          'release',
          'point',
          'billed calls',
          'RSS MiB',
          'data files',
          'CPU µs/call (segment)',
          'reads/call',
          'writes/call',
          'KiB written/call',
          'req/s (last chunk)',
        ],
        ['after', 'before'].flatMap((rel) =>
          state[rel].rows.map((r) => [
            rel,
            r.checkpoint ? fmt(r.checkpoint, 0) : 'start',
            fmt(r.billed, 0),
            fmt(r.rssMiB),
            describeFiles(r.files),
            r.cpuUsPerCall ? fmt(r.cpuUsPerCall, 0) : '-',
            r.readsPerCall ? fmt(r.readsPerCall) : '-',
            r.writesPerCall ? fmt(r.writesPerCall) : '-',
            r.writtenKiBPerCall ? fmt(r.writtenKiBPerCall) : '-',
            r.rps ? fmt(r.rps, 0) : '-',
          ]),
        ),
      );
      const onePerCall = {};
      for (const rel of ['after', 'before']) {
        const s = state[rel];
        const last = s.rows[s.rows.length - 1];
        onePerCall[rel] = ((lastCpu[rel] - s.cpu0) * 1e6) / Math.max(1, last.billed - s.billed0);
      }
      log(
        `one process, CPU per call over all ${fmt(CHECKPOINTS[CHECKPOINTS.length - 1], 0)} calls: after ${fmt(onePerCall.after, 0)} µs, before ${fmt(onePerCall.before, 0)} µs`,
      );
      const rowAt = (rel, c) => state[rel].rows.find((r) => r.checkpoint === c);
      const first = CHECKPOINTS[0];
      const lastPoint = CHECKPOINTS[CHECKPOINTS.length - 1];
      const growth = rowAt('after', lastPoint).rssMiB - rowAt('after', first).rssMiB;
      const growthBefore = rowAt('before', lastPoint).rssMiB - rowAt('before', first).rssMiB;
      goals.push({
        goal: `after RSS at ${lastPoint} within 20 MiB of RSS at ${first}`,
        value: `${growth >= 0 ? '+' : ''}${fmt(growth)} MiB (before: ${growthBefore >= 0 ? '+' : ''}${fmt(growthBefore)} MiB)`,
        met: growth <= 20,
      });
      log(
        `after RSS ${fmt(first, 0)} → ${fmt(lastPoint, 0)} calls: ${growth >= 0 ? '+' : ''}${fmt(growth)} MiB (goal ≤ 20 MiB: ${growth <= 20 ? 'met' : 'MISSED'}); before: ${growthBefore >= 0 ? '+' : ''}${fmt(growthBefore)} MiB`,
      );
      results.memory = Object.fromEntries(['after', 'before'].map((rel) => [rel, state[rel].rows]));
      results.onePerCallCpuUs = onePerCall;
    }

    if (STAGES.includes('tail')) {
      log(
        `\n2. Tail: fixed ${TAIL_RATE} req/s for ${TAIL_SECONDS} s, one process, alternating targets (${TAIL_ROUNDS} round${TAIL_ROUNDS > 1 ? 's' : ''})`,
      );
      const t = {
        direct: target(
          urls.fast,
          '/v1/chat/completions',
          { authorization: 'Bearer bench-credential' },
          JSON.stringify({ model: 'bench-model', messages, max_tokens: 64 }),
        ),
        yardstick: target(
          `${yardstick.url}/fast`,
          '/v1/chat/completions',
          {},
          JSON.stringify({ model: 'bench-model', messages, max_tokens: 64 }),
        ),
        after: gw.after.target,
        before: gw.before.target,
      };
      for (const name of Object.keys(t)) await closedLoop(t[name], { connections: 10, durationMs: 500 });
      const rounds = Object.fromEntries(Object.keys(t).map((n) => [n, []]));
      for (let round = 0; round < TAIL_ROUNDS; round += 1) {
        for (const name of Object.keys(t)) {
          const pid = name === 'direct' ? upstream.child.pid : name === 'yardstick' ? yardstick.child.pid : gw[name].pid;
          const probed = PROBE && gw[name];
          if (probed) {
            process.kill(pid, 'SIGUSR2');
            await sleep(100);
          }
          const cpu0 = cpuSeconds(pid);
          /** @type {any} */
          const r = await fixedRate(t[name], { rate: TAIL_RATE, durationMs: TAIL_SECONDS * 1000 });
          r.cpuUsPerRequest = ((cpuSeconds(pid) - cpu0) * 1e6) / Math.max(1, r.requests);
          let probe;
          if (probed) {
            rmSync(gw[name].probeOut, { force: true });
            process.kill(pid, 'SIGUSR2');
            for (let i = 0; i < 50 && !existsSync(gw[name].probeOut); i += 1) await sleep(20);
            probe = json(readFileSync(gw[name].probeOut, 'utf8'));
          }
          rounds[name].push({
            p50: r.p50,
            p99: r.p99,
            requests: r.requests,
            errors: r.errors,
            cpuUsPerRequest: r.cpuUsPerRequest,
            ...(probe ? { probe } : {}),
          });
          log(
            `  round ${round + 1} ${name.padEnd(9)} p50 ${fmt(r.p50, 2)} ms  p99 ${fmt(r.p99, 2)} ms  requests ${r.requests}  errors ${r.errors}  cpu ${fmt(r.cpuUsPerRequest, 0)} µs/req`,
          );
          if (probe) {
            const major = probe.majorGcPausesMs;
            const minor = probe.gc['minor (scavenge)'];
            log(
              `      probe: event-loop delay p99 ${fmt(probe.loopDelayMs.p99, 1)} ms, max ${fmt(probe.loopDelayMs.max, 1)} ms; mark-compacts ${major.length} (${major.join(', ')} ms); scavenges ${minor?.n ?? 0} (avg ${fmt((minor?.ms ?? 0) / Math.max(1, minor?.n ?? 0), 1)} ms)${name === 'after' ? `; store calls over ${env.STORE_PROBE_SLOW_MS ?? 3} ms: ${probe.slowStoreCalls}` : ''}`,
            );
            if (name === 'after') {
              for (const c of probe.storeCalls
                .filter((x) => x.slow > 0)
                .sort((a, b) => b.slow - a.slow)
                .slice(0, 3))
                log(
                  `      slow store calls: ${c.slow} × ${c.sql.slice(0, 70)} (of ${c.n}, max ${fmt(c.max, 1)} ms, total ${fmt(c.ms, 0)} ms)`,
                );
            }
            if (probe.promotedAllocations)
              log(
                `      promoted allocations (${fmt(probe.promotedAllocations.totalMiB, 1)} MiB sampled): ${probe.promotedAllocations.top
                  .slice(0, 6)
                  .map((x) => `${x.site} ${fmt(x.kib / 1024, 1)} MiB`)
                  .join('; ')}`,
              );
            delete probe.timeline;
          }
        }
      }
      // Best round per target (lowest p99), as chat.mjs keeps the best of its rounds; every round is printed too.
      const best = Object.fromEntries(Object.entries(rounds).map(([n, rs]) => [n, rs.reduce((a, b) => (b.p99 < a.p99 ? b : a))]));
      log('');
      table(
        [
          'target',
          'p50 ms',
          'p99 ms',
          'p99 ms of each round',
          'added p50 vs direct',
          'added p99 vs direct',
          'added p99 vs yardstick',
          'CPU µs/req',
          'errors',
        ],
        Object.entries(best).map(([n, r]) => [
          n,
          fmt(r.p50, 2),
          fmt(r.p99, 2),
          rounds[n].map((x) => fmt(x.p99, 1)).join(', '),
          n === 'direct' ? '-' : `+${fmt(r.p50 - best.direct.p50, 2)} ms`,
          n === 'direct' ? '-' : `+${fmt(r.p99 - best.direct.p99, 2)} ms`,
          n === 'direct' || n === 'yardstick' ? '-' : `+${fmt(r.p99 - best.yardstick.p99, 2)} ms`,
          fmt(r.cpuUsPerRequest, 0),
          r.errors,
        ]),
      );
      const added = best.after.p99 - best.direct.p99;
      goals.push({
        goal: `after added p99 at ${TAIL_RATE} req/s ≤ 10 ms`,
        value: `+${fmt(added, 2)} ms (before +${fmt(best.before.p99 - best.direct.p99, 2)} ms; best of ${TAIL_ROUNDS})`,
        met: added <= 10,
      });
      log(
        `after added p99 (best round) +${fmt(added, 2)} ms (goal ≤ 10 ms: ${added <= 10 ? 'met' : 'MISSED'}); worst round +${fmt(Math.max(...rounds.after.map((r) => r.p99)) - best.direct.p99, 2)} ms`,
      );
      results.tail = { rounds, best, state: "the memory stage's processes, after its calls" };
    }
    for (const g of Object.values(gw)) await stopChild(g.child, 60_000);
  }

  // ---------------------------------------------------------------------------------------------
  // 3. CPU per call in separate mode, over a real nats-server each.
  // ---------------------------------------------------------------------------------------------
  if (STAGES.includes('cpu')) {
    log(
      `\n3. CPU per call, separate processes over NATS JetStream (closed loop ${CONNECTIONS} connections, ${CPU_ROUNDS} × ${CPU_SECONDS} s each, alternating; CPU counted until the ledger shows every call)`,
    );
    const sep = {};
    for (const release of ['after', 'before']) {
      sep[release] = await startSeparate(release);
      sep[release].key = await createKey(sep[release].url);
      sep[release].target = gatewayTarget(sep[release].url, sep[release].key);
      const w = await saturate(sep[release].target, 2);
      sep[release].sent = w.requests;
      sep[release].billed = await settle(sep[release].url, sep[release].key, Math.floor(w.requests * 0.99));
      sep[release].cpu = Object.fromEntries(Object.keys(sep[release].pids).map((n) => [n, 0]));
      sep[release].calls = 0;
      sep[release].rps = [];
      sep[release].errors = 0;
    }
    for (let round = 0; round < CPU_ROUNDS; round += 1) {
      for (const release of ['after', 'before']) {
        const s = sep[release];
        const before = Object.fromEntries(Object.entries(s.pids).map(([n, pid]) => [n, cpuSeconds(pid)]));
        const r = await saturate(s.target, CPU_SECONDS);
        s.sent += r.requests;
        s.errors += r.errors;
        const n = await settle(s.url, s.key, Math.floor(s.sent * 0.995) - s.errors);
        for (const [name, pid] of Object.entries(s.pids)) s.cpu[name] += cpuSeconds(pid) - before[name];
        s.calls += n - s.billed;
        s.billed = n;
        s.rps.push(r.rps);
        log(`  round ${round + 1} ${release.padEnd(6)} ${fmt(r.rps, 0)} req/s, ${r.requests} calls, errors ${r.errors}`);
      }
    }
    const names = ['accounting', 'chat', 'edge', 'video', 'supervisor', 'nats-server'];
    const perCall = Object.fromEntries(
      ['after', 'before'].map((rel) => [rel, Object.fromEntries(names.map((n) => [n, (sep[rel].cpu[n] * 1e6) / sep[rel].calls]))]),
    );
    for (const rel of ['after', 'before']) perCall[rel].total = names.reduce((a, n) => a + perCall[rel][n], 0);
    const rss = Object.fromEntries(
      ['after', 'before'].map((rel) => [rel, Object.fromEntries(names.map((n) => [n, rssMiB(sep[rel].pids[n])]))]),
    );
    log('');
    table(
      ['release', 'calls', 'req/s (best)', ...names.map((n) => `${n} µs/call`), 'total µs/call', 'RSS MiB (accounting, chat, edge)'],
      ['after', 'before'].map((rel) => [
        rel,
        fmt(sep[rel].calls, 0),
        fmt(Math.max(...sep[rel].rps), 0),
        ...names.map((n) => fmt(perCall[rel][n], 0)),
        fmt(perCall[rel].total, 0),
        `${fmt(rss[rel].accounting, 0)}, ${fmt(rss[rel].chat, 0)}, ${fmt(rss[rel].edge, 0)}`,
      ]),
    );
    if (results.onePerCallCpuUs)
      log(
        `one process (memory stage, ${fmt(CHECKPOINTS[CHECKPOINTS.length - 1], 0)} calls): after ${fmt(results.onePerCallCpuUs.after, 0)} µs/call, before ${fmt(results.onePerCallCpuUs.before, 0)} µs/call`,
      );
    results.separateCpu = {
      perCallUs: perCall,
      calls: { after: sep.after.calls, before: sep.before.calls },
      rps: { after: sep.after.rps, before: sep.before.rps },
      errors: { after: sep.after.errors, before: sep.before.errors },
      rssMiB: rss,
    };
    for (const s of Object.values(sep)) await s.stop();
  }

  // ---------------------------------------------------------------------------------------------
  // 4. Start time with an empty and with a seeded data folder.
  // ---------------------------------------------------------------------------------------------
  if (STAGES.includes('start')) {
    log(
      `\n4. Start: spawn to "gateway ready", one process (${START_RUNS} runs each, alternating; seeded: ${fmt(SEED.ledger, 0)} ledger entries over ${fmt(SEED.keys, 0)} keys, ${fmt(SEED.tasks, 0)} video tasks${BEFORE_LEDGER !== SEED.ledger ? `; before: ${fmt(BEFORE_LEDGER, 0)} ledger entries` : ''})`,
    );
    const cache = env.BENCH_SEED_CACHE ? resolve(env.BENCH_SEED_CACHE) : join(tmp, 'seed');
    const tag = `${SEED.keys}-${SEED.ledger}-${SEED.tasks}`;
    const seeded = { after: join(cache, `after-${tag}`), before: join(cache, `before-${SEED.keys}-${BEFORE_LEDGER}-${SEED.tasks}`) };
    const seeding = {};
    const now = Date.now();
    for (const release of ['after', 'before']) {
      if (existsSync(join(seeded[release], '.complete'))) {
        seeding[release] = { reused: seeded[release] };
        log(`  ${release}: reusing the seeded folder ${seeded[release]}`);
        continue;
      }
      rmSync(seeded[release], { recursive: true, force: true });
      const t0 = performance.now();
      const child = await start([fileURLToPath(import.meta.url), `seed-${release}`, seeded[release], String(now)], {
        ready: json,
        name: `seed ${release}`,
        timeoutMs: 900_000,
      });
      seeding[release] = { ...child.value, wallSeconds: (performance.now() - t0) / 1000 };
      await stopChild(child.child);
      writeFileSync(join(seeded[release], '.complete'), '');
    }
    const seedFiles = { after: dataFiles(seeded.after), before: dataFiles(seeded.before) };
    if (seeding.after.seconds !== undefined) {
      log(
        `  seeding after (through the store port, SqliteStore, batches of 20,000 inserts per atomically): ${fmt(seeding.after.seconds, 1)} s (inserts ${fmt(seeding.after.insertSeconds, 1)} s, indexes ${fmt(seeding.after.indexSeconds, 1)} s, declared by ${seeding.after.indexesFrom}), gateway.db ${mib(seedFiles.after['gateway.db'])}`,
      );
      log(
        `  the video poller's due() query on the ${fmt(SEED.tasks, 0)} seeded tasks (none due): ${fmt(seeding.after.pollerDueQueryMs, 1)} ms, run every 1.5 s`,
      );
    }
    if (seeding.before.seconds !== undefined)
      log(`  seeding before (nedb lines written directly): ${fmt(seeding.before.seconds, 1)} s, ${describeFiles(seedFiles.before)}`);
    const variants = [
      ['after', 'empty'],
      ['before', 'empty'],
      ['after', 'seeded'],
      ['before', 'seeded'],
    ];
    const runs = Object.fromEntries(variants.map(([r, d]) => [`${r} ${d}`, []]));
    // Serving right after the start (first run of each): the same fixed rate as the tail stage.
    const serving = {};
    if (SERVING_SECONDS > 0) {
      const direct = target(
        urls.fast,
        '/v1/chat/completions',
        { authorization: 'Bearer bench-credential' },
        JSON.stringify({ model: 'bench-model', messages, max_tokens: 64 }),
      );
      await closedLoop(direct, { connections: 5, durationMs: 300 });
      serving.direct = await fixedRate(direct, { rate: TAIL_RATE, durationMs: SERVING_SECONDS * 1000 });
    }
    for (let run = 0; run < START_RUNS; run += 1) {
      for (const [release, data] of variants) {
        const dir = join(tmp, `start-${release}-${data}-${run}`);
        if (data === 'seeded') cpSync(seeded[release], dir, { recursive: true });
        const g = await startOne(release, dir);
        const rss = rssMiB(g.pid);
        let served = '';
        if (run === 0 && SERVING_SECONDS > 0) {
          const t = gatewayTarget(g.url, await createKey(g.url));
          // A gateway that cannot keep up is killed SERVING_CUTOFF s after the calls began: what had not
          // been answered by then counts as an error (the figures are then of the answered calls only).
          let cut = false;
          const cutoff = setTimeout(
            () => {
              cut = true;
              g.child.kill('SIGKILL');
            },
            (SERVING_SECONDS + SERVING_CUTOFF) * 1000,
          );
          await closedLoop(t, { connections: 5, durationMs: 1000 }); // JIT and connections warm, as in the tail stage
          const cpu0 = cpuSeconds(g.pid);
          /** @type {any} */
          const r = await fixedRate(t, { rate: TAIL_RATE, durationMs: SERVING_SECONDS * 1000 });
          clearTimeout(cutoff);
          r.cpuUsPerRequest = cut ? NaN : ((cpuSeconds(g.pid) - cpu0) * 1e6) / Math.max(1, r.requests);
          r.cutOff = cut;
          serving[`${release} ${data}`] = r;
          served = `; then (after 1 s of warm-up) ${TAIL_RATE} req/s for ${SERVING_SECONDS} s: p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms, cpu ${fmt(r.cpuUsPerRequest, 0)} µs/req, errors ${r.errors}${cut ? ` (CUT OFF: killed ${SERVING_SECONDS + SERVING_CUTOFF} s after warm-up began, ${r.requests} of ${TAIL_RATE * SERVING_SECONDS} answered; p50/p99 of those)` : ''}`;
        } else await sleep(200);
        const stopT0 = performance.now();
        await stopChild(g.child, 5_000); // past 5 s (before compacts every file on SIGTERM) it is killed: the copy is thrown away
        const stopMs = performance.now() - stopT0;
        rmSync(dir, { recursive: true, force: true });
        runs[`${release} ${data}`].push({ ms: g.startMs, rssMiB: rss, stopMs });
        log(
          `  run ${run + 1} ${release.padEnd(6)} ${data.padEnd(6)} ready after ${fmt(g.startMs / 1000, 2)} s, RSS at ready ${fmt(rss, 0)} MiB${served}`,
        );
      }
    }
    log('');
    table(
      [
        'release',
        'data folder',
        'start s (median)',
        'runs s',
        'RSS at ready MiB (median)',
        ...(SERVING_SECONDS > 0 ? [`then ${TAIL_RATE} req/s: p50 / p99 ms`, 'added p99 vs direct'] : []),
      ],
      Object.entries(runs).map(([n, rs]) => [
        n.split(' ')[0],
        n.split(' ')[1] === 'empty'
          ? 'empty'
          : n.startsWith('after')
            ? `seeded, ${fmt(SEED.ledger, 0)} ledger`
            : `seeded, ${fmt(BEFORE_LEDGER, 0)} ledger`,
        fmt(median(rs.map((r) => r.ms)) / 1000, 2),
        rs.map((r) => fmt(r.ms / 1000, 2)).join(', '),
        fmt(median(rs.map((r) => r.rssMiB)), 0),
        ...(SERVING_SECONDS > 0
          ? [
              `${fmt(serving[n].p50, 2)} / ${fmt(serving[n].p99, 2)}${serving[n].cutOff ? ` (cut off, ${serving[n].requests} of ${TAIL_RATE * SERVING_SECONDS} answered)` : ''}`,
              `+${fmt(serving[n].p99 - serving.direct.p99, 2)} ms`,
            ]
          : []),
      ]),
    );
    if (SERVING_SECONDS > 0)
      log(`(direct to the upstream at the same rate: p50 ${fmt(serving.direct.p50, 2)} ms, p99 ${fmt(serving.direct.p99, 2)} ms)`);
    const seededStart = median(runs['after seeded'].map((r) => r.ms)) / 1000;
    goals.push({
      goal: 'after start with the seeded folder < 2 s',
      value: `${fmt(seededStart, 2)} s (before ${fmt(median(runs['before seeded'].map((r) => r.ms)) / 1000, 2)} s)`,
      met: seededStart < 2,
    });
    results.start = {
      seeding,
      seedFiles,
      runs,
      serving: Object.fromEntries(
        Object.entries(serving).map(([n, r]) => [
          n,
          { p50: r.p50, p99: r.p99, requests: r.requests, errors: r.errors, cpuUsPerRequest: r.cpuUsPerRequest, cutOff: r.cutOff },
        ]),
      ),
    };
  }

  log('\nGoals');
  table(
    ['goal', 'figure', 'met'],
    goals.map((g) => [g.goal, g.value, g.met ? 'yes' : 'NO']),
  );
  results.goals = goals;
  results.seconds = (performance.now() - benchStarted) / 1000;
  log(`\nbench took ${fmt(results.seconds / 60, 1)} min`);
  process.stdout.write(`${JSON.stringify(results)}\n`);
  await cleanup();
  process.exit(0);
}
