#!/usr/bin/env node
// The embedded store's two SQLite bindings side by side: node:sqlite (Node ≥ 22.13) and libsql,
// on the store's own schema (a WITHOUT ROWID table of JSON documents, expression indexes on
// json_extract, WAL, synchronous=NORMAL, prepared statements), alternating in one process, each
// on a database of its own. Prints one Markdown table of µs per operation (medians of the rounds).
// Usage: npm run build && node bench/sqlite-drivers.mjs      (SQLITE_BENCH_ROUNDS=5)
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROUNDS = Number(process.env.SQLITE_BENCH_ROUNDS ?? 5);
const require = createRequire(new URL('../packages/store/package.json', import.meta.url));
/** @type {any} */
const builtin = process.getBuiltinModule?.('node:sqlite');
const tmp = mkdtempSync(join(tmpdir(), 'gateway-sqlite-drivers-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const drivers = {
  'node:sqlite': builtin ? (file) => new builtin.DatabaseSync(file) : undefined,
  libsql: (file) => new (require('libsql'))(file),
};
// The ledger's spend-log indexes (services/accounting/src/domain/ledger.ts).
const LEDGER_INDEXES = [
  ['key_id', 'sort_key'],
  ['key_id', 'group', 'sort_key'],
  ['team_id', 'sort_key'],
  ['team_id', 'group', 'sort_key'],
  ['group', 'sort_key'],
  ['sort_key'],
];

function setUp(open, name) {
  const db = open(join(tmp, `${name.replace(/\W/g, '_')}.db`));
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA wal_autocheckpoint = 0');
  for (const table of ['ledger', 'outbox', 'keys', 'items']) {
    db.exec(`CREATE TABLE "${table}" (id TEXT PRIMARY KEY NOT NULL, doc TEXT NOT NULL, dates TEXT) WITHOUT ROWID`);
  }
  for (const [i, fields] of LEDGER_INDEXES.entries()) {
    db.exec(`CREATE INDEX ledger_${i} ON ledger (${fields.map((f) => `json_extract(doc, '$.${f}')`).join(', ')})`);
  }
  db.exec(`INSERT INTO keys VALUES ('k1', '{"_id":"k1","spent_nano_usd":0}', NULL)`);
  let n = 0;
  const id = () => `${Date.now().toString(16)}${(n++).toString(16).padStart(10, '0')}`;
  const s = {
    one: db.prepare('SELECT 1'),
    key: db.prepare('SELECT doc, dates FROM keys WHERE id = ?'),
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    item: db.prepare('INSERT INTO items (id, doc, dates) VALUES (?, ?, ?)'),
    ledger: db.prepare('INSERT INTO ledger (id, doc, dates) VALUES (?, ?, ?)'),
    outbox: db.prepare('INSERT INTO outbox (id, doc, dates) VALUES (?, ?, ?)'),
    unbox: db.prepare('DELETE FROM outbox WHERE id = ?'),
    spend: db.prepare(
      `UPDATE keys SET doc = json_set(doc, '$.spent_nano_usd', json_extract(doc, '$.spent_nano_usd') + ?) WHERE id = ? RETURNING doc`,
    ),
  };
  const entry = (key) =>
    JSON.stringify({
      _id: key,
      key_id: 'k1',
      team_id: null,
      group: 'chat-fast',
      kind: 'chat',
      cost_nano_usd: 1234,
      occurred_at: Date.now(),
      recorded_at: Date.now(),
      usage: { prompt_tokens: 12, completion_tokens: 34 },
      sort_key: `${Date.now()}:${key}`,
    });
  const pending = [];
  return {
    db,
    /** @type {Record<string, [number, () => unknown, number?]>} */
    ops: {
      'SELECT 1': [100_000, () => s.one.get()],
      'read by _id': [100_000, () => s.key.get('k1')],
      'BEGIN IMMEDIATE + COMMIT': [
        20_000,
        () => {
          s.begin.run();
          s.commit.run();
        },
      ],
      'one-row insert, own transaction': [
        20_000,
        () => {
          s.begin.run();
          s.item.run(`i${id()}`, '{"n":1}', null);
          s.commit.run();
        },
      ],
      'ledger row (six indexes), 40 per transaction': [
        500,
        () => {
          s.begin.run();
          for (let i = 0; i < 40; i += 1) {
            const key = `chatcmpl-${id()}`;
            s.ledger.run(key, entry(key), '["occurred_at","recorded_at"]');
          }
          s.commit.run();
        },
        40,
      ],
      // What one billed call writes in the one-process start: its spend event into the outbox
      // (own commit) and a key read; every 40th call, the batch: ledger rows, the balance, the deletes.
      'a billed call, one process': [
        20_000,
        () => {
          const key = `chatcmpl-${id()}`;
          s.begin.run();
          s.outbox.run(key, '{"subject":"spend","data":{"cost_nano_usd":1234}}', '[]');
          s.commit.run();
          s.key.get('k1');
          pending.push(key);
          if (pending.length < 40) return;
          s.begin.run();
          for (const k of pending) s.ledger.run(k, entry(k), '["occurred_at","recorded_at"]');
          s.spend.get(40 * 1234, 'k1');
          for (const k of pending) s.unbox.run(k);
          s.commit.run();
          pending.length = 0;
        },
      ],
    },
  };
}

const available = Object.entries(drivers).filter(([, open]) => open);
const setups = Object.fromEntries(available.map(([name, open]) => [name, setUp(open, name)]));
const results = {};
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name] of available) {
    for (const [op, [times, run, per = 1]] of Object.entries(setups[name].ops)) {
      // The store checkpoints on a thread of its own; here, between timed runs, untimed.
      setups[name].db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      for (let i = 0; i < Math.min(times, 2000); i += 1) run();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < times; i += 1) run();
      const us = Number(process.hrtime.bigint() - t0) / 1000 / times / per;
      ((results[op] ??= {})[name] ??= []).push(us);
    }
  }
  process.stderr.write(`round ${round + 1} of ${ROUNDS}\n`);
}
for (const { db } of Object.values(setups)) db.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const names = available.map(([name]) => name);
const versions = names.map((name) => {
  const db = drivers[name](':memory:');
  const { v } = db.prepare('SELECT sqlite_version() AS v').get();
  db.close();
  return `${name} (SQLite ${v})`;
});
console.log(`Node ${process.version}; µs per operation, medians of ${ROUNDS} rounds: ${versions.join(', ')}\n`);
console.log(`| operation | ${names.join(' | ')} |${names.length > 1 ? ` ${names[0]} ÷ ${names[1]} |` : ''}`);
console.log(`|---|${names.map(() => '--:').join('|')}|${names.length > 1 ? '--:|' : ''}`);
for (const [op, byDriver] of Object.entries(results)) {
  const figures = names.map((name) => median(byDriver[name]));
  const ratio = names.length > 1 ? ` ${(figures[0] / figures[1]).toFixed(2)} |` : '';
  console.log(`| ${op} | ${figures.map((f) => f.toFixed(2)).join(' | ')} |${ratio}`);
}
