// A diagnostic preload for a gateway process (node --require bench/lib/store-probe.cjs):
// counts where the event loop stalls. It times every SQLite call of either binding the store
// runs on (node:sqlite, libsql: exec, and run/get/all of prepared statements, by SQL text),
// records V8 garbage-collection pauses and the event-loop delay. On SIGUSR2 it writes what it saw
// since the previous SIGUSR2 to STORE_PROBE_OUT (JSON) and starts over. STORE_PROBE_SQL=0 leaves
// SQLite alone (a release without it).
// The wrappers cost a little per call: figures taken with the probe are for finding causes,
// not for comparing releases.
const { writeFileSync } = require('node:fs');
const { constants, monitorEventLoopDelay, performance, PerformanceObserver } = require('node:perf_hooks');

const SLOW_MS = Number(process.env.STORE_PROBE_SLOW_MS ?? 3);
const out = process.env.STORE_PROBE_OUT;
let calls = new Map();
let slow = [];
let gcs = [];
const started = () => performance.now();

if (process.env.STORE_PROBE_SQL !== '0') {
  const Database = require('libsql');
  const wrap = (proto, name, label) => {
    const original = proto[name];
    proto[name] = function timed(...args) {
      const t0 = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = performance.now() - t0;
        const sql = label(this, args);
        const c = calls.get(sql) ?? { n: 0, ms: 0, max: 0, slow: 0 };
        c.n += 1;
        c.ms += ms;
        c.max = Math.max(c.max, ms);
        if (ms > SLOW_MS) {
          c.slow += 1;
          slow.push({ at: Math.round(performance.timeOrigin + t0), ms: Number(ms.toFixed(2)), sql: sql.slice(0, 120) });
        }
        calls.set(sql, c);
      }
    };
  };
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function prepared(sql, ...rest) {
    const statement = prepare.call(this, sql, ...rest);
    statement.probeSql = sql;
    return statement;
  };
  wrap(Database.prototype, 'exec', (_db, args) => `exec ${args[0]}`);
  // An experiment, not a setting: STORE_PROBE_AUTOCHECKPOINT=N runs `PRAGMA wal_autocheckpoint = N`
  // right after the store turns WAL on (0: no checkpoint inside a commit; the WAL then grows).
  if (process.env.STORE_PROBE_AUTOCHECKPOINT !== undefined) {
    const exec = Database.prototype.exec;
    Database.prototype.exec = function execWithCheckpointSetting(sql, ...rest) {
      const result = exec.call(this, sql, ...rest);
      if (/^PRAGMA journal_mode = WAL$/i.test(sql))
        exec.call(this, `PRAGMA wal_autocheckpoint = ${Number(process.env.STORE_PROBE_AUTOCHECKPOINT)}`);
      return result;
    };
  }
  const memory = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(memory.prepare('SELECT 1'));
  memory.close();
  for (const method of ['run', 'get', 'all']) wrap(statementProto, method, (statement) => `${method} ${statement.probeSql ?? '?'}`);

  // node:sqlite (the store's binding where Node has it): its statements know their SQL.
  const sqlite = process.getBuiltinModule?.('node:sqlite');
  if (sqlite) {
    wrap(sqlite.DatabaseSync.prototype, 'exec', (_db, args) => `exec ${args[0]}`);
    for (const method of ['run', 'get', 'all'])
      wrap(sqlite.StatementSync.prototype, method, (statement) => `${method} ${statement.sourceSQL}`);
  }
}

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
new PerformanceObserver((list) => {
  for (const e of list.getEntries())
    gcs.push({ at: Math.round(performance.timeOrigin + e.startTime), ms: e.duration, kind: e.detail?.kind ?? e.kind });
}).observe({ entryTypes: ['gc'] });

// STORE_PROBE_HEAP=1: V8's sampling heap profiler between two SIGUSR2, keeping objects that
// survived a scavenge (promoted) even when a later mark-compact collected them: where the old
// space's garbage is allocated.
let heapSession;
let heapSites;
if (process.env.STORE_PROBE_HEAP === '1') {
  const inspector = require('node:inspector');
  heapSession = new inspector.Session();
  heapSession.connect();
}
function heapWindow() {
  if (!heapSession) return;
  heapSession.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error && result?.profile) {
      const sites = new Map();
      const walk = (node, stack) => {
        const frame = node.callFrame;
        const here = frame.url
          ? `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|packages|services)\//, '$1/')}:${frame.lineNumber + 1}`
          : frame.functionName || '(native)';
        if (node.selfSize > 0) sites.set(here, (sites.get(here) ?? 0) + node.selfSize);
        for (const child of node.children ?? []) walk(child, stack);
      };
      walk(result.profile.head, []);
      const total = [...sites.values()].reduce((a, b) => a + b, 0);
      heapSites = {
        totalMiB: Number((total / 1048576).toFixed(1)),
        top: [...sites]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 15)
          .map(([site, bytes]) => ({ site, kib: Math.round(bytes / 1024) })),
      };
    }
    heapSession.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    });
  });
}
heapWindow();

let windowStart = started();
process.on('SIGUSR2', () => {
  heapWindow();
  const ms = (ns) => Number((ns / 1e6).toFixed(2));
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor (scavenge)',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major (mark-compact)',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const byKind = {};
  for (const g of gcs) {
    const k = kinds[g.kind] ?? String(g.kind);
    const s = byKind[k] ?? { n: 0, ms: 0, max: 0 };
    s.n += 1;
    s.ms = Number((s.ms + g.ms).toFixed(1));
    s.max = Number(Math.max(s.max, g.ms).toFixed(1));
    byKind[k] = s;
  }
  const report = {
    seconds: (started() - windowStart) / 1000,
    loopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    gc: byKind,
    majorGcPausesMs: gcs.filter((g) => g.kind === constants.NODE_PERFORMANCE_GC_MAJOR).map((g) => Number(g.ms.toFixed(1))),
    storeCalls: [...calls]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 12)
      .map(([sql, c]) => ({ sql: sql.slice(0, 120), ...c, ms: Number(c.ms.toFixed(1)), max: Number(c.max.toFixed(2)) })),
    slowStoreCalls: slow.length,
    slowStoreCallsFirst: slow.slice(0, 12),
    /** Timelines (epoch ms) to lay over request latencies: every slow store call and GC pause over 1 ms. */
    promotedAllocations: heapSites,
    timeline: {
      slowStoreCalls: slow.slice(0, 2000),
      gcPauses: gcs
        .filter((g) => g.ms > 1)
        .slice(0, 2000)
        .map((g) => ({ at: g.at, ms: Number(g.ms.toFixed(2)), kind: g.kind })),
    },
  };
  if (out) writeFileSync(out, JSON.stringify(report));
  calls = new Map();
  slow = [];
  gcs = [];
  loop.reset();
  windowStart = started();
});
