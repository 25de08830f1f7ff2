#!/usr/bin/env node
// Spend events, two measurements. Run after `npm run build`.
//   node bench/events.mjs            (both)
//   EVENTS_PART=codec|writes node bench/events.mjs
//
// 1. codec: cost per spend event of the bus's wire form, protobuf (gateway.events.v1.SpendEvent)
//    against the JSON it replaced, encode and decode (with the consumer's checks).
// 2. writes: store writes per applied spend event at load, in the separate-process shape:
//    a publisher process (bench/lib/spend-publisher.mjs, a chat service's NatsBus) sends spend
//    events through nats-server (JetStream) to accounting (its app, in this process, on its own
//    embedded store), at each rate of EVENTS_RATES (events per second, default "250,1000,4000")
//    for EVENTS_SECONDS (default 6) each. Writes are read from gateway_store_writes_total (the
//    store adapter counts every write operation it issues) before and after each run, and
//    divided by the events applied (ledger entries); with the CPU time accounting's process
//    spent per event meanwhile. 85% of the events draw from budget leases
//    (as chat calls do), 15% settle per-call reservations with tokens (keys with rate limits);
//    24 keys, 16 of them in 4 teams (2 with a team budget).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, scratchDir, startNats, track } from './lib/start.mjs';
import { decodeSpendEvent, encodeSpendEvent, LEASE_PREFIX, SPEND_STREAM, SPEND_SUBJECTS } from '../packages/contracts/dist/index.js';

const part = process.env.EVENTS_PART ?? 'all';
if (part === 'all' || part === 'codec') codec();
if (part === 'all' || part === 'writes') await writes();

function codec() {
  /** @type {import('../packages/contracts/dist/index.js').SpendEvent} */
  const event = {
    id: 'chatcmpl-3f9c2a7e1b6d4c0a9e8f7a6b5c4d3e2f',
    kind: 'chat',
    key_id: 'key_s0P3rz2Xc3cA_9a3',
    group: 'gamma-flash',
    cost_nano_usd: 1_234_567,
    occurred_at: Date.now(),
    usage: { prompt_tokens: 812, completion_tokens: 240, reasoning_tokens: 0 },
    lease_id: 'lease_a1b2c3d4e5f6_1k',
    lease_nano_usd: 9_000_000,
  };
  const N = 200_000;
  function time(label, run) {
    for (let i = 0; i < 20_000; i += 1) run();
    const start = process.hrtime.bigint();
    for (let i = 0; i < N; i += 1) run();
    const ns = Number(process.hrtime.bigint() - start) / N;
    console.log(`${label.padEnd(28)} ${(ns / 1000).toFixed(2)} µs`);
  }
  const bytes = encodeSpendEvent(event);
  const json = Buffer.from(JSON.stringify(event));
  console.log(`size: protobuf ${bytes.length} bytes, JSON ${json.length} bytes`);
  time('protobuf encode', () => encodeSpendEvent(event));
  time('protobuf decode + check', () => decodeSpendEvent(bytes, 'spend.v1.chat'));
  time('JSON encode', () => Buffer.from(JSON.stringify(event)));
  time('JSON decode + check', () => decodeSpendEvent(JSON.parse(json.toString()), 'spend.v1.chat'));
}

async function writes() {
  const { buildAccountingApp } = await import('../services/accounting/dist/index.js');
  const { NatsBus, openOutbox } = await import('../packages/bus/dist/index.js');
  const { exampleConfigPath, loadConfig } = await import('../packages/config/dist/index.js');
  const { silentLogger } = await import('../packages/logging/dist/index.js');
  const { SqliteStore } = await import('../packages/store/dist/index.js');
  const { countStoreWrite, metricsRegistry } = await import('../packages/telemetry/dist/index.js');

  const rates = (process.env.EVENTS_RATES ?? '250,1000,4000').split(',').map(Number);
  const seconds = Number(process.env.EVENTS_SECONDS ?? 6);
  const GROUP = 'gamma-flash';
  const tmp = scratchDir('gateway-events-bench-');

  // --- NATS ---
  const natsUrl = (await startNats(tmp)).url;

  // --- accounting, as `gateway start --service accounting` opens it (store and outbox in one gateway.db) ---
  const dataDir = join(tmp, 'accounting');
  const store = new SqliteStore(dataDir, { onWrite: countStoreWrite });
  const outboxStore = new SqliteStore(dataDir, { onWrite: countStoreWrite });
  const bus = await NatsBus.connect({
    servers: natsUrl,
    logger: silentLogger(),
    name: 'bench-accounting',
    outbox: await openOutbox(outboxStore, { byDueTime: true }),
    streamName: SPEND_STREAM,
    streamSubjects: [SPEND_SUBJECTS],
  });
  const app = await buildAccountingApp({ config: await loadConfig(exampleConfigPath), bus, store, logger: silentLogger(), env: {} });
  const ledger = await store.collection('accounting_ledger');

  // --- keys, teams, leases ---
  const BUDGET = 10 ** 15;
  const teams = [];
  for (let t = 0; t < 4; t += 1) teams.push(await app.teams.create({ name: `team-${t}`, budgetNanoUsd: t < 2 ? BUDGET : null }));
  const keys = [];
  for (let k = 0; k < 24; k += 1) {
    const team = k < 16 ? teams[k % 4] : null;
    const { key } = await app.keys.create({ name: `key-${k}`, models: ['*'], budgetNanoUsd: BUDGET, rpm: 0, teamId: team?._id ?? null });
    const leaseId = `${LEASE_PREFIX}bench${k}`;
    await app.reservations.lease(key, team, GROUP, leaseId, 1e9, 10 ** 13);
    keys.push({ key, team, leaseId });
  }

  async function writeCounts() {
    const metric = await metricsRegistry().getSingleMetric('gateway_store_writes_total')?.get();
    const counts = new Map();
    for (const value of metric?.values ?? []) counts.set(`${value.labels.collection} ${value.labels.op}`, value.value);
    return counts;
  }

  console.log('\nstore writes per applied spend event, separate processes over NATS JetStream, embedded store');
  console.log('rate/s  events  applied in s  CPU µs/event  writes  writes/event  (by collection and op, per event)');
  let serial = 0;
  for (const rate of rates) {
    const count = Math.round(rate * seconds);
    const events = [];
    for (let i = 0; i < count; i += 1) {
      const { key, team, leaseId } = keys[i % keys.length];
      const id = `chatcmpl-bench-${rate}-${serial}-${i}`;
      const base = { id, kind: 'chat', key_id: key._id, group: GROUP, cost_nano_usd: 1_000_000 + (i % 97), occurred_at: Date.now() };
      if (i % 20 < 17) {
        events.push({
          ...base,
          usage: { prompt_tokens: 800, completion_tokens: 200, reasoning_tokens: 0 },
          lease_id: leaseId,
          lease_nano_usd: 2_000_000,
        });
      } else {
        // A per-call reservation, held now (its writes are not the event's), settled by the event.
        await app.reservations.reserve(key, team, GROUP, 2_000_000, id);
        events.push({ ...base, usage: { prompt_tokens: 800, completion_tokens: 200, reasoning_tokens: 0 }, reservation_id: id });
      }
    }
    serial += 1;
    const file = join(tmp, `events-${rate}.json`);
    writeFileSync(file, JSON.stringify(events));
    const ledgerBefore = await ledger.countDocuments({});
    const before = await writeCounts();
    const startedAt = performance.now();
    // This process is accounting (and the bench's polling, a read every 50 ms).
    const cpuBefore = process.cpuUsage();
    const publisher = track(
      spawn(process.execPath, [join(root, 'bench/lib/spend-publisher.mjs'), file], {
        env: { ...process.env, NATS_URL: natsUrl, EVENTS_RATE: String(rate) },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    let applied = 0;
    const deadline = Date.now() + seconds * 1000 + 60_000;
    while (applied < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      applied = (await ledger.countDocuments({})) - ledgerBefore;
    }
    const elapsed = (performance.now() - startedAt) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await new Promise((resolve) => (publisher.exitCode === null ? publisher.once('exit', resolve) : resolve()));
    // Settled spend on the ledger equals what was published: nothing lost, nothing twice.
    const expected = events.reduce((sum, e) => sum + e.cost_nano_usd, 0);
    /** @type {any[]} */
    const entries = await ledger.find({ _id: { $in: events.map((e) => e.id) } });
    const recorded = entries.reduce((sum, e) => sum + e.cost_nano_usd, 0);
    const after = await writeCounts();
    const perOp = [];
    let total = 0;
    for (const [label, value] of after) {
      const delta = value - (before.get(label) ?? 0);
      if (delta <= 0) continue;
      total += delta;
      perOp.push([label, delta]);
    }
    perOp.sort((a, b) => b[1] - a[1]);
    const detail = perOp.map(([label, delta]) => `${label} ${(delta / applied).toFixed(3)}`).join(', ');
    console.log(
      `${String(rate).padStart(6)}  ${String(applied).padStart(6)}  ${elapsed.toFixed(1).padStart(12)}  ${((cpu.user + cpu.system) / applied).toFixed(0).padStart(12)}  ${String(total).padStart(6)}  ${(total / applied).toFixed(3).padStart(12)}  (${detail})`,
    );
    if (applied !== count || recorded !== expected) {
      console.log(`  MISMATCH: ${applied} of ${count} applied, ${recorded} of ${expected} nano-USD recorded`);
      process.exitCode = 1;
    }
  }
  await app.stop();
  await bus.close();
  await outboxStore.close();
  await store.close();
  process.exit();
}
