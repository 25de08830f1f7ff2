#!/usr/bin/env node
// A budget hold on the embedded store: one conditional atomic update of the key document
// (available >= price, this hold not there yet), then its settlement, as accounting runs them.
// Prints microseconds per operation; the hot path holds once per lease renewal or per call of a
// rate-limited key, and settles once per spend event.
// Usage: npm run build && node bench/holds.mjs   (HOLDS=20000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleConfigPath, loadConfig } from '../packages/config/dist/index.js';
import { SqliteStore } from '../packages/store/dist/index.js';
import { KeyRepository } from '../services/accounting/dist/domain/keys.js';
import { Reservations } from '../services/accounting/dist/domain/reservations.js';

const N = Number(process.env.HOLDS ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), 'gateway-holds-'));
const store = new SqliteStore(dir);
try {
  const keys = await KeyRepository.open(store, await loadConfig(exampleConfigPath));
  const reservations = await Reservations.open(store, keys);
  // Other keys in the collection, so the look-ups are not on an empty table.
  await store.atomically(async () => {
    for (let i = 0; i < 1000; i += 1) await keys.create({ name: `k${i}`, models: ['*'], budgetNanoUsd: 1e12, rpm: 0 });
  });
  const { key } = await keys.create({ name: 'bench', models: ['*'], budgetNanoUsd: 1e15, rpm: 0 });
  // Each call holds, then its spend event settles the hold: a key carries only the holds of calls in flight.
  const timings = { hold: 0n, settle: 0n, settlePart: 0n };
  const run = async (i, measure) => {
    const a = process.hrtime.bigint();
    await reservations.reserve(key, 'g', 1000, `h_${i}`);
    const b = process.hrtime.bigint();
    await reservations.settle(key._id, `h_${i}`, 600);
    const c = process.hrtime.bigint();
    await reservations.settlePart(key._id, 'lease_bench', 10, 6);
    const d = process.hrtime.bigint();
    if (measure) {
      timings.hold += b - a;
      timings.settle += c - b;
      timings.settlePart += d - c;
    }
  };
  await reservations.lease(key, 'g', 'lease_bench', 10, 1e14, undefined);
  for (let i = 0; i < 1000; i += 1) await run(`warm${i}`, false);
  for (let i = 0; i < N; i += 1) await run(i, true);
  const figures = Object.fromEntries(Object.entries(timings).map(([name, ns]) => [name, Number(ns) / 1000 / N]));
  console.log(`hold (conditional update)   ${figures.hold.toFixed(1).padStart(6)} µs`);
  console.log(`settle (hold → spend)       ${figures.settle.toFixed(1).padStart(6)} µs`);
  console.log(`settle a lease's part       ${figures.settlePart.toFixed(1).padStart(6)} µs`);
  console.log(JSON.stringify({ bench: 'holds', store: 'sqlite', n: N, us: figures }));
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
