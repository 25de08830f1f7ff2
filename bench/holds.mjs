#!/usr/bin/env node
// A budget hold on the embedded store: one conditional atomic update of the key document
// (available >= price, this hold not there yet), then its settlement, as accounting runs them,
// and a whole spend event applied (ledger entry, balance, per-group and daily totals) in one
// transaction. Prints microseconds per operation; the hot path holds once per lease renewal or
// per call of a rate-limited key, and applies one spend event per call.
// Usage: npm run build && node bench/holds.mjs   (HOLDS=20000; BENCH_TREE=<another checkout,
// built> runs the same against that tree, for a before/after comparison)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const N = Number(process.env.HOLDS ?? 20_000);
const tree = resolve(process.env.BENCH_TREE ?? join(import.meta.dirname, '..'));
const load = (path) => import(pathToFileURL(join(tree, path)).href);
const { exampleConfigPath, loadConfig } = await load('packages/config/dist/index.js');
const { SqliteStore } = await load('packages/store/dist/index.js');
const { KeyRepository } = await load('services/accounting/dist/domain/keys.js');
const { Reservations } = await load('services/accounting/dist/domain/reservations.js');
const { Ledger } = await load('services/accounting/dist/domain/ledger.js');
// Trees before teams existed have the older signatures.
const teamsModule = await load('services/accounting/dist/domain/teams.js').catch(() => undefined);

const dir = mkdtempSync(join(tmpdir(), 'gateway-holds-'));
const store = new SqliteStore(dir);
try {
  const config = await loadConfig(exampleConfigPath);
  const keys = await KeyRepository.open(store, config);
  const teams = teamsModule ? await teamsModule.TeamRepository.open(store, config) : undefined;
  const reservations = teams ? await Reservations.open(store, keys, teams) : await Reservations.open(store, keys);
  const ledger = teams ? await Ledger.open(store, keys, reservations) : await Ledger.open(store, reservations);
  const reserve = (key, id, amount) =>
    teams ? reservations.reserve(key, null, 'g', amount, id) : reservations.reserve(key, 'g', amount, id);
  const settle = async (key, id, cost) => (teams ? reservations.book.settle(key, id, cost) : reservations.book.settle(key._id, id, cost));
  const settlePart = async (key, id, part, cost) =>
    teams ? reservations.book.settle(key, id, cost, part) : reservations.book.settlePart(key._id, id, part, cost);
  const lease = (key, id, min, want) =>
    teams ? reservations.lease(key, null, 'g', id, min, want) : reservations.lease(key, 'g', id, min, want);
  // Other keys in the collection, so the look-ups are not on an empty table.
  await store.atomically(async () => {
    for (let i = 0; i < 1000; i += 1) await keys.create({ name: `k${i}`, models: ['*'], budgetNanoUsd: 1e12, rpm: 0 });
  });
  const { key } = await keys.create({ name: 'bench', models: ['*'], budgetNanoUsd: 1e15, rpm: 0 });
  // Each call holds, then its spend event settles the hold: a key carries only the holds of calls in flight.
  const timings = { hold: 0n, settle: 0n, settlePart: 0n, apply: 0n };
  const run = async (i, measure) => {
    const a = process.hrtime.bigint();
    await reserve(key, `h_${i}`, 1000);
    const b = process.hrtime.bigint();
    await settle(key, `h_${i}`, 600);
    const c = process.hrtime.bigint();
    await settlePart(key, 'lease_bench', 10, 6);
    const d = process.hrtime.bigint();
    await reserve(key, `e_${i}`, 1000);
    const e = process.hrtime.bigint();
    const event = {
      id: `chatcmpl-${i}`,
      kind: 'chat',
      key_id: key._id,
      group: 'gamma-flash',
      cost_nano_usd: 600,
      occurred_at: Date.now(),
      usage: { prompt_tokens: 100, completion_tokens: 50 },
      reservation_id: `e_${i}`,
    };
    await store.atomically(() => ledger.apply(event));
    const f = process.hrtime.bigint();
    if (measure) {
      timings.hold += b - a;
      timings.settle += c - b;
      timings.settlePart += d - c;
      timings.apply += f - e;
    }
  };
  await lease(key, 'lease_bench', 10, 1e14);
  for (let i = 0; i < 1000; i += 1) await run(`warm${i}`, false);
  for (let i = 0; i < N; i += 1) await run(i, true);
  const figures = Object.fromEntries(Object.entries(timings).map(([name, ns]) => [name, Number(ns) / 1000 / N]));
  console.log(`tree: ${tree}`);
  console.log(`hold (conditional update)   ${figures.hold.toFixed(1).padStart(6)} µs`);
  console.log(`settle (hold → spend)       ${figures.settle.toFixed(1).padStart(6)} µs`);
  console.log(`settle a lease's part       ${figures.settlePart.toFixed(1).padStart(6)} µs`);
  console.log(`apply a spend event         ${figures.apply.toFixed(1).padStart(6)} µs`);
  console.log(JSON.stringify({ bench: 'holds', store: 'sqlite', n: N, us: figures }));
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
