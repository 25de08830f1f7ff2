#!/usr/bin/env node
// Spend logs and daily spend over a large ledger on the embedded store: fills a ledger of
// BENCH_ENTRIES entries (default 1,000,000: 1,000 keys, 20 teams, 5 groups, 60 days) and its
// daily rows, then times the admin routes' queries through accounting's own Ledger class
// (median and max of 20 runs after 3 warm-ups). Target: every query under 100 ms.
// Usage: npm run build && node bench/spend-logs.mjs   (BENCH_ENTRIES=100000 for a quick run)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleConfigPath, loadConfig } from '../packages/config/dist/index.js';
import { SqliteStore } from '../packages/store/dist/index.js';
import { KeyRepository } from '../services/accounting/dist/domain/keys.js';
import {
  DAILY_COLLECTION,
  DAILY_TOTALS_COLLECTION,
  LEDGER_COLLECTION,
  Ledger,
  sortKey,
} from '../services/accounting/dist/domain/ledger.js';
import { Reservations } from '../services/accounting/dist/domain/reservations.js';
import { TeamRepository } from '../services/accounting/dist/domain/teams.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const KEYS = 1000;
const TEAMS = 20;
const GROUPS = ['gamma-flash', 'gamma-v4-pro', 'alpha-h3', 'beta-dance', 'demo-chat'];
const DAYS = 60;
const DAY_MS = 86_400_000;
const end = Date.UTC(2026, 10, 25);
const start = end - DAYS * DAY_MS;
const teamOf = (k) => (k % 3 === 0 ? null : `team_${k % TEAMS}`);

const dir = mkdtempSync(join(tmpdir(), 'gateway-spend-logs-'));
const store = new SqliteStore(dir);
try {
  const config = await loadConfig(exampleConfigPath);
  const keys = await KeyRepository.open(store, config);
  const teams = await TeamRepository.open(store, config);
  const reservations = await Reservations.open(store, keys, teams);
  const ledger = await Ledger.open(store, keys, reservations);
  /** @type {any} */
  const entries = await store.collection(LEDGER_COLLECTION);
  const daily = await store.collection(DAILY_COLLECTION);
  const totals = await store.collection(DAILY_TOTALS_COLLECTION);

  const fillStarted = Date.now();
  const sums = new Map();
  for (let batch = 0; batch < ENTRIES; batch += 10_000) {
    await store.atomically(async () => {
      for (let i = batch; i < Math.min(ENTRIES, batch + 10_000); i += 1) {
        const k = (i * 7919) % KEYS;
        const group = GROUPS[i % GROUPS.length];
        const at = start + Math.floor((i / ENTRIES) * DAYS * DAY_MS);
        const id = `chatcmpl-${i.toString(36).padStart(8, '0')}`;
        const cost = 1000 + (i % 977);
        await entries.insertOne({
          _id: id,
          key_id: `key_${k}`,
          team_id: teamOf(k),
          group,
          kind: 'chat',
          cost_nano_usd: cost,
          occurred_at: new Date(at),
          recorded_at: new Date(at),
          usage: { prompt_tokens: 100 + (i % 50), completion_tokens: 20 + (i % 30) },
          sort_key: sortKey(at, id),
        });
        const day = new Date(at).toISOString().slice(0, 10);
        const rowId = `${day}|key_${k}|${group}|${teamOf(k) ?? ''}`;
        const sum = sums.get(rowId) ?? { _id: rowId, day, key_id: `key_${k}`, team_id: teamOf(k), group, spent_nano_usd: 0, requests: 0 };
        sum.spent_nano_usd += cost;
        sum.requests += 1;
        sums.set(rowId, sum);
      }
    });
  }
  const rows = [...sums.values()];
  const byDayGroup = new Map();
  for (const row of rows) {
    const id = `${row.day}|${row.group}`;
    const total = byDayGroup.get(id) ?? { _id: id, day: row.day, group: row.group, spent_nano_usd: 0, requests: 0 };
    total.spent_nano_usd += row.spent_nano_usd;
    total.requests += row.requests;
    byDayGroup.set(id, total);
  }
  for (let batch = 0; batch < rows.length; batch += 10_000) {
    await store.atomically(async () => {
      for (const row of rows.slice(batch, batch + 10_000)) await daily.insertOne(row);
    });
  }
  await store.atomically(async () => {
    for (const total of byDayGroup.values()) await totals.insertOne(total);
  });
  console.log(
    `filled ${ENTRIES.toLocaleString('en')} ledger entries and ${rows.length.toLocaleString('en')} daily rows in ${((Date.now() - fillStarted) / 1000).toFixed(0)} s`,
  );

  const second = await ledger.spendLogs({ limit: 100 });
  // A group key_42 does call (each key of this fill calls one group).
  const groupOf42 = (await ledger.spendLogs({ keyId: 'key_42', limit: 1 })).entries[0]?.group;
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);
  /** @type {[string, () => Promise<any>][]} */
  const queries = [
    ['spend logs, one key, newest 100', () => ledger.spendLogs({ keyId: 'key_42', limit: 100 })],
    [
      'spend logs, one key and group, 30 days',
      () => ledger.spendLogs({ keyId: 'key_42', group: groupOf42, fromMs: end - 30 * DAY_MS, toMs: end, limit: 100 }),
    ],
    ['spend logs, one team, newest 100', () => ledger.spendLogs({ teamId: 'team_7', limit: 100 })],
    ['spend logs, one group, newest 100', () => ledger.spendLogs({ group: 'beta-dance', limit: 100 })],
    ['spend logs, everything, page 2 (cursor)', () => ledger.spendLogs({ limit: 100, after: second.next })],
    [
      'spend logs, everything, one day, 1000 rows',
      () => ledger.spendLogs({ fromMs: end - 10 * DAY_MS, toMs: end - 9 * DAY_MS, limit: 1000 }),
    ],
    ['daily spend, one key, 30 days', () => ledger.dailySpend({ keyId: 'key_42', fromDay: day(end - 30 * DAY_MS), toDay: day(end) })],
    ['daily spend, one team, 30 days', () => ledger.dailySpend({ teamId: 'team_7', fromDay: day(end - 30 * DAY_MS), toDay: day(end) })],
    ['daily spend, everything, 7 days', () => ledger.dailySpend({ fromDay: day(end - 7 * DAY_MS), toDay: day(end) })],
  ];
  console.log(`\n| query (${ENTRIES.toLocaleString('en')} entries) | rows | median ms | max ms |`);
  console.log('|---|---|---|---|');
  const results = [];
  for (const [label, run] of queries) {
    let count = 0;
    for (let i = 0; i < 3; i += 1) await run();
    const times = [];
    for (let i = 0; i < 20; i += 1) {
      const t = process.hrtime.bigint();
      const result = await run();
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
      count = Array.isArray(result) ? result.length : result.entries.length;
    }
    times.sort((a, b) => a - b);
    const median = (times[9] + times[10]) / 2;
    results.push({ label, rows: count, median, max: times[19] });
    console.log(`| ${label} | ${count} | ${median.toFixed(2)} | ${times[19].toFixed(2)} |`);
  }
  console.log(JSON.stringify({ bench: 'spend-logs', entries: ENTRIES, results }));
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
