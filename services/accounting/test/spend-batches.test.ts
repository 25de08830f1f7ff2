import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus, NatsBus, openOutbox, type Bus } from '@gateway/bus';
import { exampleConfigPath, loadConfig } from '@gateway/config';
import { encodeSpendEvent, SPEND_STREAM, SPEND_SUBJECTS, spendSubject, type SpendEvent } from '@gateway/contracts';
import { silentLogger } from '@gateway/logging';
import { type Doc, SqliteStore, type StoreWriteOp } from '@gateway/store';
import { describe, expect, it } from 'vitest';
import { buildAccountingApp, type AccountingApp } from '../src/index.js';
import type { KeyRecord } from '../src/domain/keys.js';
import type { TeamRecord } from '../src/domain/teams.js';
import { eventually } from '../../../test/helpers/wait.js';
import { cleanupAfterEach, natsForFile } from './support.js';

// Spend events applied in batches: one store transaction per batch, one ledger insert, one
// update per key, team, token window, daily row and daily total. The outcome must be exactly
// that of applying the same events one at a time, each event applied once whatever the
// redeliveries, and a batch that fails before its commit must leave nothing behind.

const cleanup = cleanupAfterEach();
const nats = natsForFile();

const COLLECTIONS = [
  'accounting_keys',
  'accounting_teams',
  'accounting_ledger',
  'accounting_daily',
  'accounting_daily_totals',
  'accounting_rate_windows',
] as const;

interface Opened {
  dir: string;
  store: SqliteStore;
  app: AccountingApp;
  bus: Bus;
  /** Write operations since the last `writes.clear()`, by "collection op". */
  writes: Map<string, number>;
  close(): Promise<void>;
}

/** Accounting on the store in `dir`, consuming from an in-process bus, or from NATS JetStream as its own process would. */
async function open(dir: string, over: 'in-process' | 'nats' = 'in-process'): Promise<Opened> {
  const writes = new Map<string, number>();
  const store = new SqliteStore(dir, {
    onWrite: (collection: string, op: StoreWriteOp) => writes.set(`${collection} ${op}`, (writes.get(`${collection} ${op}`) ?? 0) + 1),
  });
  let outboxStore: SqliteStore | undefined;
  let bus: Bus;
  if (over === 'nats') {
    outboxStore = new SqliteStore(join(dir, 'outbox'));
    bus = await NatsBus.connect({
      servers: nats().url,
      logger: silentLogger(),
      name: 'spend-batches-test',
      outbox: await openOutbox(outboxStore, { byDueTime: true }),
      streamName: SPEND_STREAM,
      streamSubjects: [SPEND_SUBJECTS],
    });
  } else {
    bus = new InProcessBus({ retryDelayMs: 5 });
  }
  const app = await buildAccountingApp({ config: await loadConfig(exampleConfigPath), bus, store, logger: silentLogger(), env: {} });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.stop();
    await bus.close();
    await outboxStore?.close();
    await store.close();
  };
  cleanup(close);
  return { dir, store, app, bus, writes, close };
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-spend-batches-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every document of the collections spend moves, in id order, without the times of writing. */
async function snapshot(store: SqliteStore): Promise<Record<string, Doc[]>> {
  const all: Record<string, Doc[]> = {};
  for (const name of COLLECTIONS) {
    const docs = await (await store.collection<Doc & Record<string, unknown>>(name)).find({}, { sort: { _id: 1 } });
    all[name] = docs.map(({ recorded_at: _recorded, created_at: _created, ...rest }) => rest);
  }
  return all;
}

function total(writes: Map<string, number>): number {
  let sum = 0;
  for (const n of writes.values()) sum += n;
  return sum;
}

const GROUPS = ['gamma-flash', 'beta-dance'];
/** A fixed time in the past (all in one UTC day and one minute), so daily rows and token windows are known. */
const AT = Date.UTC(2026, 0, 15, 10, 30, 0);

interface World {
  keys: KeyRecord[];
  teams: TeamRecord[];
  /** A lease per key, and per-call reservations to settle. */
  leases: string[];
  reservations: { keyIndex: number; id: string }[];
}

/**
 * Six keys: two alone, two in a team with a budget (holds on the team too), two in a team
 * without one (spend counted on it). Each holds a lease; some per-call reservations besides.
 */
async function populate(app: AccountingApp): Promise<World> {
  const budgeted = await app.teams.create({ name: 'with budget', budgetNanoUsd: 10_000_000_000 });
  const unbudgeted = await app.teams.create({ name: 'without budget', budgetNanoUsd: null });
  const teamOf = [null, null, budgeted, budgeted, unbudgeted, unbudgeted];
  const keys: KeyRecord[] = [];
  const leases: string[] = [];
  for (const [i, team] of teamOf.entries()) {
    const { key } = await app.keys.create({
      name: `k${i}`,
      models: ['*'],
      budgetNanoUsd: 5_000_000_000,
      rpm: 0,
      teamId: team?._id ?? null,
    });
    keys.push(key);
    const leaseId = `lease_batch${i}`;
    await app.reservations.lease(key, team, GROUPS[0] as string, leaseId, 50_000_000, 100_000_000);
    leases.push(leaseId);
  }
  const reservations: { keyIndex: number; id: string }[] = [];
  for (let i = 0; i < 12; i += 1) {
    const keyIndex = i % keys.length;
    const id = `chatcmpl-held-${i}`;
    await app.reservations.reserve(keys[keyIndex] as KeyRecord, teamOf[keyIndex] ?? null, GROUPS[1] as string, 3_000_000, id);
    reservations.push({ keyIndex, id });
  }
  return { keys, teams: [budgeted, unbudgeted], leases, reservations };
}

/**
 * Events of every kind: lease draws (several per lease, the last ones past what is left, so the
 * lease ends midway and the rest are plain spend), per-call reservations settled (with tokens),
 * plain spend with no hold, and a spend naming a hold that is not there.
 */
function burst(world: World, prefix: string): SpendEvent[] {
  const events: SpendEvent[] = [];
  const usage = { prompt_tokens: 300, completion_tokens: 100, reasoning_tokens: 0 };
  for (let i = 0; i < 96; i += 1) {
    const keyIndex = i % world.keys.length;
    const key = world.keys[keyIndex] as KeyRecord;
    events.push({
      id: `${prefix}-lease-${i}`,
      kind: 'chat',
      key_id: key._id,
      group: GROUPS[i % 2] as string,
      cost_nano_usd: 4_000_000 + i,
      occurred_at: AT + i,
      usage,
      lease_id: world.leases[keyIndex],
      lease_nano_usd: 7_000_000,
    });
  }
  for (const { keyIndex, id } of world.reservations) {
    events.push({
      id,
      kind: 'chat',
      key_id: (world.keys[keyIndex] as KeyRecord)._id,
      group: GROUPS[1] as string,
      cost_nano_usd: 2_500_000,
      occurred_at: AT + 500,
      usage,
      reservation_id: id,
    });
  }
  for (let i = 0; i < 6; i += 1) {
    events.push({
      id: `${prefix}-video-${i}`,
      kind: 'video',
      key_id: (world.keys[i] as KeyRecord)._id,
      group: GROUPS[0] as string,
      cost_nano_usd: 9_000_000,
      occurred_at: AT + 900,
      ...(i % 2 ? { reservation_id: `${prefix}-never-held-${i}` } : {}),
    });
  }
  return events;
}

/** Two stores with the same keys, teams and holds: the data folder of one copied to the other. */
async function twins(over: 'in-process' | 'nats' = 'in-process'): Promise<{ batched: Opened; single: Opened; world: World }> {
  const first = await open(await tempDir());
  const world = await populate(first.app);
  await first.close();
  const copy = await tempDir();
  await cp(first.dir, copy, { recursive: true });
  return { batched: await open(first.dir, over), single: await open(copy), world };
}

describe('spend events in batches', () => {
  it('apply a burst for several keys and teams exactly as one at a time would, in a few writes', async () => {
    const { batched, single, world } = await twins();
    const events = burst(world, 'burst');
    for (const event of events) await single.store.atomically(() => single.app.ledger.apply(event));
    batched.writes.clear();
    const outcome = await batched.store.transaction(() => batched.app.ledger.applyBatch(events));
    expect(outcome.applied).toHaveLength(events.length);
    expect(outcome.repeated).toEqual([]);
    expect(await snapshot(batched.store)).toEqual(await snapshot(single.store));

    // The money is exact: every key spent its events' costs; the teams their keys'.
    const spent = new Map<string, number>();
    for (const event of events) spent.set(event.key_id, (spent.get(event.key_id) ?? 0) + event.cost_nano_usd);
    const keys = await batched.app.keys.getMany(world.keys.map((k) => k._id));
    for (const key of keys.values()) expect(key.spent_nano_usd).toBe(spent.get(key._id));
    for (const team of (await batched.app.teams.findMany(world.teams.map((t) => t._id))).values()) {
      const ofTeam = [...keys.values()].filter((k) => k.team_id === team._id);
      expect(team.spent_nano_usd).toBe(ofTeam.reduce((sum, k) => sum + k.spent_nano_usd, 0));
    }

    // One ledger insert; one update per key (6), per team (2), per token window (the 12
    // reservations' keys and teams, one minute: 6 + 2), per daily row (key × group: 12) and
    // per daily total (2 groups). Nothing else.
    expect(Object.fromEntries(batched.writes)).toEqual({
      'accounting_ledger insert_many': 1,
      'accounting_keys update_one': 6,
      'accounting_teams update_one': 2,
      'accounting_rate_windows update_one': 8,
      'accounting_daily update_one': 12,
      'accounting_daily_totals update_one': 2,
    });
    expect(total(batched.writes) / events.length).toBeLessThan(0.4);
    // One at a time, the same events took about five writes each.
    expect(total(single.writes) / events.length).toBeGreaterThan(4);
  });

  it('apply an id once: repeated within a batch, and again in later batches', async () => {
    const { batched, single, world } = await twins();
    const events = burst(world, 'dup');
    for (const event of events) await single.store.atomically(() => single.app.ledger.apply(event));
    const [a, b, c] = events as [SpendEvent, SpendEvent, SpendEvent];
    const first = await batched.store.transaction(() => batched.app.ledger.applyBatch([a, b, a, c, b, a]));
    expect(first.applied.map((e) => e.id)).toEqual([a.id, b.id, c.id]);
    expect(first.repeated.map((e) => e.id)).toEqual([a.id, b.id, a.id]);
    // The whole burst, delivered twice more (redeliveries), overlapping what was applied.
    const second = await batched.store.transaction(() => batched.app.ledger.applyBatch(events));
    expect(second.applied).toHaveLength(events.length - 3);
    expect(second.repeated.map((e) => e.id)).toEqual([a.id, b.id, c.id]);
    batched.writes.clear();
    const third = await batched.store.transaction(() => batched.app.ledger.applyBatch([...events].reverse()));
    expect(third.applied).toEqual([]);
    expect(third.repeated).toHaveLength(events.length);
    // A batch seen whole before writes nothing.
    expect(total(batched.writes)).toBe(0);
    expect(await snapshot(batched.store)).toEqual(await snapshot(single.store));
  });

  it('leave nothing applied when the batch fails before its commit, and apply it whole when delivered again', async () => {
    const { batched, single, world } = await twins();
    const events = burst(world, 'crash');
    for (const event of events) await single.store.atomically(() => single.app.ledger.apply(event));
    const before = await snapshot(batched.store);
    const interrupted = await batched.store
      .transaction(async () => {
        await batched.app.ledger.applyBatch(events);
        // What a crash between the last write and the commit does: the transaction never commits.
        throw new Error('killed before the commit');
      })
      .catch((error: unknown) => error);
    expect(interrupted).toMatchObject({ message: 'killed before the commit' });
    expect(await snapshot(batched.store)).toEqual(before);
    const redelivered = await batched.store.transaction(() => batched.app.ledger.applyBatch(events));
    expect(redelivered.applied).toHaveLength(events.length);
    expect(await snapshot(batched.store)).toEqual(await snapshot(single.store));
  });

  it('skip events of unknown keys and apply the rest of their batch', async () => {
    const opened = await open(await tempDir());
    const world = await populate(opened.app);
    const [good] = burst(world, 'unknown') as [SpendEvent];
    const stray: SpendEvent = { ...good, id: 'stray', key_id: 'key_gone' };
    const outcome = await opened.store.transaction(() => opened.app.ledger.applyBatch([stray, good]));
    expect(outcome.applied.map((e) => e.id)).toEqual([good.id]);
    expect(outcome.unknownKey.map((e) => e.id)).toEqual(['stray']);
  });

  it.each(['in-process', 'nats'] as const)(
    'are applied from the %s bus a batch per transaction, and a redelivery after the commit changes nothing',
    async (over) => {
      const { batched, single, world } = await twins(over);
      const events = burst(world, `bus-${over}`);
      for (const event of events) await single.store.atomically(() => single.app.ledger.apply(event));
      batched.writes.clear();
      // Published together: the consumer gets them in a batch or a few, not one by one.
      await Promise.all(events.map((event) => batched.bus.publish(spendSubject(event.kind), event.id, encodeSpendEvent(event))));
      const ledger = await batched.store.collection('accounting_ledger');
      await eventually(async () => (await ledger.countDocuments({})) === events.length, 10_000);
      expect(batched.writes.get('accounting_ledger insert_many') ?? 0).toBeLessThanOrEqual(over === 'nats' ? 8 : 2);
      expect(total(batched.writes) / events.length).toBeLessThan(over === 'nats' ? 2 : 0.8);
      // A kill -9 after the commit and before the acknowledgement: the bus delivers the events
      // again (here under new message ids, as a republish outside JetStream's window would).
      await new Promise((resolve) => setTimeout(resolve, 200));
      const settled = await snapshot(batched.store);
      batched.writes.clear();
      for (const event of events.slice(0, 40)) {
        await batched.bus.publish(spendSubject(event.kind), `again-${event.id}`, encodeSpendEvent(event));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(total(batched.writes)).toBe(0);
      expect(await snapshot(batched.store)).toEqual(settled);
      expect(settled).toEqual(await snapshot(single.store));
    },
  );
});
