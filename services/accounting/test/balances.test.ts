import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleConfigPath, loadConfig } from '@gateway/config';
import { type Doc, SqliteStore } from '@gateway/store';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyRepository } from '../src/domain/keys.js';
import { LEDGER_COLLECTION, Ledger } from '../src/domain/ledger.js';
import { Reservations } from '../src/domain/reservations.js';
import { TeamRepository } from '../src/domain/teams.js';

// Balances of keys and teams over a real embedded store, with a clock the tests move: budget
// periods that reset, holds that straddle a reset, team budgets shared by racing keys.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function open(start: string) {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-balances-'));
  const store = new SqliteStore(dir);
  cleanups.push(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  const clock = { now: Date.parse(start) };
  const now = () => clock.now;
  const config = await loadConfig(exampleConfigPath);
  const keys = await KeyRepository.open(store, config, now);
  const teams = await TeamRepository.open(store, config, now);
  const reservations = await Reservations.open(store, keys, teams, now);
  return { clock, keys, teams, reservations, book: reservations.book };
}

describe('budget periods', () => {
  it('start a new period at the UTC month boundary, keeping lifetime spend', async () => {
    const { clock, keys, reservations, book } = await open('2026-11-30T23:00:00Z');
    const { key } = await keys.create({ name: 'm', models: ['*'], budgetNanoUsd: 1000, rpm: 0, budgetPeriod: 'monthly' });
    expect(key.period_start_ms).toBe(Date.parse('2026-11-01T00:00:00Z'));
    await reservations.reserve(key, null, 'g', 900, 'c1');
    await book.settle(await keys.get(key._id), 'c1', 900);
    await expect(reservations.reserve(await keys.get(key._id), null, 'g', 200, 'c2')).rejects.toMatchObject({
      code: 'budget_exceeded',
      message: expect.stringContaining('resets at 2026-12-01T00:00:00.000Z'),
    });
    clock.now = Date.parse('2026-12-01T00:00:01Z');
    expect(await reservations.reserve(await keys.get(key._id), null, 'g', 200, 'c2')).toBe(800);
    const after = await keys.get(key._id);
    expect(after).toMatchObject({
      period_start_ms: Date.parse('2026-12-01T00:00:00Z'),
      period_spent_nano_usd: 0,
      spent_nano_usd: 900,
      reserved_nano_usd: 200,
    });
  });

  it('charge a call held before a reset to the period it was held in', async () => {
    const { clock, keys, reservations, book } = await open('2026-11-30T23:59:00Z');
    const { key } = await keys.create({ name: 'm', models: ['*'], budgetNanoUsd: 1000, rpm: 0, budgetPeriod: 'monthly' });
    await reservations.reserve(key, null, 'g', 600, 'late');
    await reservations.lease(await keys.get(key._id), null, 'g', 'lease_x', 100, 200);
    clock.now = Date.parse('2026-12-01T00:00:30Z');
    // The reset comes with the next look at the key; the holds stay held.
    const rolled = await keys.current(key._id);
    expect(rolled).toMatchObject({ period_spent_nano_usd: 0, reserved_nano_usd: 800, available_nano_usd: 200 });
    await book.settle(rolled, 'late', 500);
    await book.settle(await keys.get(key._id), 'lease_x', 50, 100);
    const after = await keys.get(key._id);
    // Both costs belong to November: December's budget is whole once the holds are gone.
    expect(after).toMatchObject({ period_spent_nano_usd: 0, spent_nano_usd: 550, reserved_nano_usd: 100, available_nano_usd: 900 });
  });

  it('count what was spent since the boundary when a lifetime key becomes monthly', async () => {
    const { keys, book, reservations } = await open('2026-11-20T12:00:00Z');
    const { key } = await keys.create({ name: 'l', models: ['*'], budgetNanoUsd: 1000, rpm: 0 });
    await reservations.reserve(key, null, 'g', 300, 'a');
    await book.settle(await keys.get(key._id), 'a', 300);
    await keys.update(key._id, { budgetPeriod: 'monthly' }, async (start) => {
      expect(start).toBe(Date.parse('2026-11-01T00:00:00Z'));
      return 120;
    });
    expect(await keys.get(key._id)).toMatchObject({ budget_period: 'monthly', period_spent_nano_usd: 120, available_nano_usd: 880 });
    // Back to lifetime: the period is the whole life again.
    await keys.update(key._id, { budgetPeriod: null, budgetNanoUsd: 500 }, async () => 0);
    expect(await keys.get(key._id)).toMatchObject({ budget_period: null, period_spent_nano_usd: 300, available_nano_usd: 200 });
  });
});

describe('team budgets', () => {
  it('never over-commit when 50 holds of two keys race, and say it was the team', async () => {
    const { keys, teams, reservations } = await open('2026-11-24T10:00:00Z');
    const team = await teams.create({ name: 'research', budgetNanoUsd: 100 });
    const a = (await keys.create({ name: 'a', models: ['*'], budgetNanoUsd: 1000, rpm: 0, teamId: team._id })).key;
    const b = (await keys.create({ name: 'b', models: ['*'], budgetNanoUsd: 1000, rpm: 0, teamId: team._id })).key;
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => reservations.reserve(i % 2 ? a : b, team, 'g', 30, `call_${i}`)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({
      code: 'budget_exceeded',
      message: expect.stringContaining('team "research"'),
    });
    const [ka, kb, t] = [await keys.get(a._id), await keys.get(b._id), await teams.get(team._id)];
    expect(t.reserved_nano_usd).toBe(90);
    expect(ka.reserved_nano_usd + kb.reserved_nano_usd).toBe(90);
  });

  it('settle and release on the team too; a key over its own budget gives the team its hold back', async () => {
    const { keys, teams, reservations, book } = await open('2026-11-24T10:00:00Z');
    const team = await teams.create({ name: 't', budgetNanoUsd: 1000, budgetPeriod: 'daily' });
    const { key } = await keys.create({ name: 'k', models: ['*'], budgetNanoUsd: 100, rpm: 0, teamId: team._id });
    await reservations.reserve(key, team, 'g', 80, 'one');
    await expect(reservations.reserve(await keys.get(key._id), team, 'g', 50, 'two')).rejects.toMatchObject({
      code: 'budget_exceeded',
      message: expect.stringContaining('This API key'),
    });
    expect((await teams.get(team._id)).reserved_nano_usd).toBe(80);
    await book.settle(await keys.get(key._id), 'one', 60);
    expect(await teams.get(team._id)).toMatchObject({ reserved_nano_usd: 0, spent_nano_usd: 60, period_spent_nano_usd: 60 });
    await reservations.reserve(await keys.get(key._id), team, 'g', 20, 'three');
    await book.release('three', undefined, key._id);
    expect(await teams.get(team._id)).toMatchObject({ reserved_nano_usd: 0, available_nano_usd: 940 });
    // Spend with no hold (a released hold's late event) still reaches the team.
    await book.settle(await keys.get(key._id), 'three', 5);
    expect(await teams.get(team._id)).toMatchObject({ spent_nano_usd: 65 });
  });

  it('sweep team holds a crashed caller left, with their keys', async () => {
    const { clock, keys, teams, reservations } = await open('2026-11-24T10:00:00Z');
    const team = await teams.create({ name: 't', budgetNanoUsd: 1000 });
    const { key } = await keys.create({ name: 'k', models: ['*'], budgetNanoUsd: 1000, rpm: 0, teamId: team._id });
    await reservations.reserve(key, team, 'g', 70, 'stuck');
    clock.now += 2 * 3600_000;
    expect(await reservations.sweep(3600_000)).toBe(1);
    expect((await teams.get(team._id)).reserved_nano_usd).toBe(0);
    expect((await keys.get(key._id)).reserved_nano_usd).toBe(0);
  });

  it('count team rate limits beside the key', async () => {
    // Rate windows expire by the store's own clock: this one runs on the real time.
    const { keys, teams, reservations } = await open(new Date().toISOString());
    const team = await teams.create({ name: 't', rpm: 2 });
    const { key } = await keys.create({ name: 'k', models: ['*'], budgetNanoUsd: 1000, rpm: 0, teamId: team._id });
    await reservations.countRequest(key, team);
    await reservations.countRequest(key, team);
    await expect(reservations.countRequest(key, team)).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      message: expect.stringContaining('team'),
    });
    expect(Reservations.perCall(key, team)).toBe(true);
  });
});

describe('a ledger written by an earlier release', () => {
  it('gets its order keys and daily spend once, in the background, and then shows in spend logs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-backfill-'));
    const store = new SqliteStore(dir);
    cleanups.push(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    const entries = await store.collection<Doc>(LEDGER_COLLECTION);
    const day = Date.parse('2026-11-20T10:00:00Z');
    for (let i = 0; i < 1200; i += 1) {
      await entries.insertOne({
        _id: `chatcmpl-old-${i}`,
        key_id: `key_${i % 3}`,
        group: i % 2 ? 'g' : 'h',
        kind: 'chat',
        cost_nano_usd: 10,
        occurred_at: new Date(day + (i % 2) * 86_400_000),
        recorded_at: new Date(day),
        usage: null,
      } as Doc);
    }
    const config = await loadConfig(exampleConfigPath);
    const keys = await KeyRepository.open(store, config);
    const teams = await TeamRepository.open(store, config);
    const ledger = await Ledger.open(store, keys, await Reservations.open(store, keys, teams));
    expect(await ledger.backfill(store)).toBe(1200);
    expect(await ledger.backfill(store)).toBe(0);
    const logs = await ledger.spendLogs({ keyId: 'key_1', limit: 1000 });
    expect(logs.entries).toHaveLength(400);
    const daily = await ledger.dailySpend({ fromDay: '2026-11-20', toDay: '2026-11-21' });
    expect(daily.reduce((sum, d) => sum + d.requests, 0)).toBe(1200);
    expect(daily.reduce((sum, d) => sum + d.spent_nano_usd, 0)).toBe(12_000);
    expect((await ledger.usageOf('key_0')).reduce((sum, g) => sum + g.requests, 0)).toBe(400);
  });
});

describe('holds taken before budget periods existed', () => {
  it('settle into the current period, so an upgraded key keeps its whole budget enforced', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-legacy-hold-'));
    const store = new SqliteStore(dir);
    cleanups.push(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });
    // A key document as an earlier release wrote it, with a video job's hold in flight.
    const raw = await store.collection<Doc>('accounting_keys', [{ field: 'hash', unique: true }, { field: 'created_at' }]);
    await raw.insertOne({
      _id: 'key_old',
      hash: 'a'.repeat(64),
      hint: 'sk-…abcd',
      name: 'old',
      models: ['*'],
      budget_nano_usd: 1000,
      rpm: 0,
      created_at: new Date('2026-01-01T00:00:00Z'),
      revoked_at: null,
      spent_nano_usd: 100,
      reserved_nano_usd: 300,
      available_nano_usd: 600,
      holds: { video_old: { amount: 300, at: Date.now(), group: 'beta-dance' } },
    } as Doc);
    const config = await loadConfig(exampleConfigPath);
    const keys = await KeyRepository.open(store, config);
    expect(await keys.backfill()).toBe(1);
    const teams = await TeamRepository.open(store, config);
    const reservations = await Reservations.open(store, keys, teams);
    await reservations.book.settle(await keys.get('key_old'), 'video_old', 250);
    expect(await keys.get('key_old')).toMatchObject({
      spent_nano_usd: 350,
      period_spent_nano_usd: 350,
      reserved_nano_usd: 0,
      available_nano_usd: 650,
    });
  });
});
