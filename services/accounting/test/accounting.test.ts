import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayError } from '@gateway/errors';
import { InProcessBus } from '@gateway/bus';
import { decodeKeyChangedEvent, KEYS_CHANGED_SUBJECT, spendSubject, type KeyChangedEvent, type SpendEvent } from '@gateway/contracts';
import { exampleConfigPath, loadConfig } from '@gateway/config';
import { silentLogger } from '@gateway/logging';
import { SqliteStore } from '@gateway/store';
import { describe, expect, it } from 'vitest';
import { AccountingClient, accountingBudget, BudgetLeases, hashSecret } from '@gateway/contracts';
import { startAccounting } from '../src/index.js';
import { eventually } from '../../../test/helpers/wait.js';
import { chatSpend, cleanupAfterEach } from './support.js';

const cleanup = cleanupAfterEach();

async function start() {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-accounting-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  const bus = new InProcessBus();
  cleanup(() => bus.close());
  const config = await loadConfig(exampleConfigPath);
  const service = await startAccounting({
    config,
    bus,
    store: new SqliteStore(dir),
    logger: silentLogger(),
    env: {},
    listen: '127.0.0.1:0',
  });
  const client = new AccountingClient(service.address);
  cleanup(() => client.close());
  let closed = false;
  const close = async () => {
    if (!closed) await service.close();
    closed = true;
  };
  cleanup(close);
  return { dir, bus, client, close };
}

async function filesText(dir: string): Promise<string> {
  const names = await readdir(dir);
  return (await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')))).join('\n');
}

const until = (check: () => boolean | Promise<boolean>, ms = 3000) => eventually(check, ms);

describe('keys', () => {
  it('are sk- secrets with at least 128 random bits, stored only as a hash', async () => {
    const { dir, client, close } = await start();
    const created = await Promise.all([1, 2, 3].map((i) => client.createKey({ name: `k${i}`, models: ['*'], budgetNanoUsd: 1, rpm: 0 })));
    for (const { secret, key } of created) {
      expect(secret).toMatch(/^sk-[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(secret.slice(3), 'base64url')).toHaveLength(24);
      expect(key.hint).toBe(`sk-…${secret.slice(-4)}`);
      expect(key.id).toMatch(/^key_/);
    }
    expect(new Set(created.map((c) => c.secret)).size).toBe(3);
    await close();
    const stored = await filesText(dir);
    for (const { secret } of created) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice(3, 20));
      expect(stored).toContain(hashSecret(secret));
    }
  });

  it('authenticate by hash; revoked and unknown keys fail alike', async () => {
    const { client } = await start();
    const { key, secret } = await client.createKey({ name: 'a', models: ['flash', 'beta-dance'], budgetNanoUsd: 25e9, rpm: 60 });
    expect(key).toMatchObject({ name: 'a', models: ['beta-dance', 'gamma-flash'], budget_nano_usd: 25e9, rpm: 60, revoked_at_ms: 0 });
    const found = await client.authenticateKey(hashSecret(secret));
    expect(found.key.id).toBe(key.id);
    await expect(client.authenticateKey(hashSecret(`${secret}x`))).rejects.toMatchObject({ code: 'invalid_api_key' });
    await expect(client.authenticateKey('not-a-hash')).rejects.toMatchObject({ code: 'invalid_api_key' });
    const revoked = await client.revokeKey(key.id);
    expect(revoked.revoked_at_ms).toBeGreaterThan(0);
    expect((await client.revokeKey(key.id)).revoked_at_ms).toBe(revoked.revoked_at_ms);
    await expect(client.authenticateKey(hashSecret(secret))).rejects.toMatchObject({ code: 'invalid_api_key' });
    await expect(client.getKey('key_nope')).rejects.toMatchObject({ code: 'key_not_found' });
  });

  it('refuse unknown groups, empty names and bad budgets with the field at fault', async () => {
    const { client } = await start();
    await expect(client.createKey({ name: 'a', models: ['gpt-nope'], budgetNanoUsd: 1, rpm: 0 })).rejects.toMatchObject({
      code: 'invalid_request',
      param: 'models',
    });
    await expect(client.createKey({ name: 'a', models: [], budgetNanoUsd: 1, rpm: 0 })).rejects.toMatchObject({ param: 'models' });
    await expect(client.createKey({ name: '  ', models: ['*'], budgetNanoUsd: 1, rpm: 0 })).rejects.toMatchObject({ param: 'name' });
    await expect(client.createKey({ name: 'a', models: ['*'], budgetNanoUsd: -1, rpm: 0 })).rejects.toMatchObject({ param: 'budget_usd' });
    expect((await client.createKey({ name: 'a', models: ['flash', '*'], budgetNanoUsd: 0, rpm: 0 })).key.models).toEqual(['*']);
  });

  it('list a page at a time in a stable order', async () => {
    const { client } = await start();
    for (let i = 0; i < 5; i += 1) await client.createKey({ name: `k${i}`, models: ['*'], budgetNanoUsd: 0, rpm: 0 });
    const first = await client.listKeys(2, '');
    const second = await client.listKeys(2, first.nextPageToken);
    const third = await client.listKeys(2, second.nextPageToken);
    expect([first.keys.length, second.keys.length, third.keys.length]).toEqual([2, 2, 1]);
    expect(third.nextPageToken).toBe('');
    const ids = [...first.keys, ...second.keys, ...third.keys].map((k) => k.id);
    expect(new Set(ids).size).toBe(5);
    expect(JSON.stringify(first)).not.toMatch(/sk-[A-Za-z0-9_-]{20}/);
  });

  it('announce creation and revocation on keys.v1.changed', async () => {
    const { bus, client } = await start();
    const heard: KeyChangedEvent[] = [];
    await bus.subscribe<unknown>(KEYS_CHANGED_SUBJECT, (data, subject) => heard.push(decodeKeyChangedEvent(data, subject)));
    const { key } = await client.createKey({ name: 'a', models: ['*'], budgetNanoUsd: 0, rpm: 0 });
    await client.revokeKey(key.id);
    await client.revokeKey(key.id);
    expect(heard).toEqual([
      { key_id: key.id, change: 'created' },
      { key_id: key.id, change: 'revoked' },
    ]);
  });
});

describe('spend', () => {
  it('applies each spend event once, to the key and its group', async () => {
    const { bus, client } = await start();
    const { key } = await client.createKey({ name: 'a', models: ['*'], budgetNanoUsd: 10e9, rpm: 0 });
    const event = (id: string, group: string, cost: number): SpendEvent => ({
      id,
      kind: 'chat',
      key_id: key.id,
      group,
      cost_nano_usd: cost,
      occurred_at: Date.now(),
      usage: { prompt_tokens: 3 },
    });
    await bus.publish(spendSubject('chat'), 'chatcmpl-1', event('chatcmpl-1', 'gamma-flash', 1400));
    await bus.publish(spendSubject('chat'), 'chatcmpl-1', event('chatcmpl-1', 'gamma-flash', 1400));
    await bus.publish(spendSubject('chat'), 'chatcmpl-2', event('chatcmpl-2', 'gamma-flash', 600));
    await bus.publish(spendSubject('video'), 'video_1', { ...event('video_1', 'alpha-h3', 480_000_000), kind: 'video' });
    await until(async () => (await client.getUsage(key.id)).spent_nano_usd === 480_002_000);
    const usage = await client.getUsage(key.id);
    expect(usage.spent_nano_usd).toBe(480_002_000);
    expect(usage.groups).toEqual([
      { group: 'alpha-h3', spent_nano_usd: 480_000_000, requests: 1, cached_tokens: 0, cache_saved_nano_usd: 0 },
      { group: 'gamma-flash', spent_nano_usd: 2000, requests: 2, cached_tokens: 0, cache_saved_nano_usd: 0 },
    ]);
    expect(usage.period_start_ms).toBe(key.created_at_ms);
  });
});

/** Reservations over one embedded store. */
async function openReservations() {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-books-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  const store = new SqliteStore(dir);
  const { KeyRepository } = await import('../src/domain/keys.js');
  const { Reservations } = await import('../src/domain/reservations.js');
  const { TeamRepository } = await import('../src/domain/teams.js');
  const config = await loadConfig(exampleConfigPath);
  const keys = await KeyRepository.open(store, config);
  const teams = await TeamRepository.open(store, config);
  return { store, keys, teams, reservations: await Reservations.open(store, keys, teams) };
}

/** Spent and reserved as the key document says. */
function figures(key: { spent_nano_usd: number; reserved_nano_usd: number }) {
  return { spent: key.spent_nano_usd, reserved: key.reserved_nano_usd };
}

describe('reservations', () => {
  it('release holds left by crashed callers, and a late settlement still records the spend once', async () => {
    const { client, bus } = await start();
    const { key } = await client.createKey({ name: 'r', models: ['*'], budgetNanoUsd: 1000, rpm: 0 });
    expect(await client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 600, reservationId: 'chatcmpl-a' })).toBe(400);
    // The same id again holds nothing more.
    expect(await client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 600, reservationId: 'chatcmpl-a' })).toBe(400);
    await expect(
      client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 401, reservationId: 'chatcmpl-b' }),
    ).rejects.toMatchObject({ code: 'budget_exceeded' });
    await client.releaseReservation({ keyId: key.id, reservationId: 'chatcmpl-a' });
    await client.releaseReservation({ keyId: key.id, reservationId: 'chatcmpl-a' });
    expect((await client.getUsage(key.id)).reserved_nano_usd).toBe(0);
    // An older caller names no key: the hold is found among every key's.
    await client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 100, reservationId: 'chatcmpl-old' });
    await client.releaseReservation({ keyId: '', reservationId: 'chatcmpl-old' });
    expect((await client.getUsage(key.id)).reserved_nano_usd).toBe(0);
    // A spend event for a hold that was released already: recorded as plain spend, once.
    const event: SpendEvent = {
      id: 'chatcmpl-a',
      kind: 'chat',
      key_id: key.id,
      group: 'gamma-flash',
      cost_nano_usd: 250,
      occurred_at: Date.now(),
      reservation_id: 'chatcmpl-a',
    };
    await bus.publish(spendSubject('chat'), event.id, event);
    await until(async () => (await client.getUsage(key.id)).spent_nano_usd === 250);
    const usage = await client.getUsage(key.id);
    expect([usage.spent_nano_usd, usage.reserved_nano_usd]).toEqual([250, 0]);
    await expect(
      client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 751, reservationId: 'chatcmpl-c' }),
    ).rejects.toMatchObject({ code: 'budget_exceeded' });
    expect(await client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 750, reservationId: 'chatcmpl-c' })).toBe(0);
  });

  it("in one process, show a call's spend right after it and refuse a budget only once waiting spend is applied", async () => {
    const { client, bus } = await start();
    const { key } = await client.createKey({ name: 'w', models: ['*'], budgetNanoUsd: 1000, rpm: 0, tpm: 100 });
    const settle = (id: string, cost: number, tokens: number): SpendEvent =>
      chatSpend(key.id, id, cost, { reservation_id: id, usage: { prompt_tokens: tokens } });
    // Calls close together: the consumer is under load and its batch waits out its window.
    for (const id of ['c1', 'c2']) {
      expect(
        await client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 400, reservationId: id }),
      ).toBeGreaterThanOrEqual(200);
      await bus.publish(spendSubject('chat'), id, settle(id, 100, 10));
    }
    // Read right after: both applied (the reader waited for them), nothing left held.
    const usage = await client.getUsage(key.id);
    expect([usage.spent_nano_usd, usage.reserved_nano_usd]).toEqual([200, 0]);
    // Two more calls hold 400 each while their spend (100 each) waits in the window: 200 + 800
    // leaves nothing, yet once applied 600 is free, so a hold of 500 is granted, not refused.
    for (const id of ['c3', 'c4']) {
      await client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 400, reservationId: id });
      await bus.publish(spendSubject('chat'), id, settle(id, 100, 10));
    }
    expect(await client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 500, reservationId: 'c5' })).toBe(100);
    // tpm is judged on every finished call's tokens: 100 reached by c5's spend refuses the next call at once.
    await bus.publish(spendSubject('chat'), 'c5', settle('c5', 100, 60));
    await expect(
      client.reserveBudget({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 1, reservationId: 'c6' }),
    ).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
  });

  it('never over-commit a budget when 50 holds race', async () => {
    const { store, keys, reservations } = await openReservations();
    const { key } = await keys.create({ name: 'race', models: ['*'], budgetNanoUsd: 1000, rpm: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => reservations.reserve(key, null, 'g', 30, `chatcmpl-${i}`)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(33);
    expect(figures(await keys.get(key._id))).toEqual({ spent: 0, reserved: 990 });
    await store.close();
  });

  it('sweep holds older than the configured age back to the key', async () => {
    const { store, keys, reservations } = await openReservations();
    const { key } = await keys.create({ name: 's', models: ['*'], budgetNanoUsd: 100, rpm: 0 });
    await reservations.reserve(key, null, 'g', 60, 'video_old');
    expect(figures(await keys.get(key._id))).toMatchObject({ reserved: 60 });
    await expect(reservations.reserve(key, null, 'g', 41, 'video_more')).rejects.toMatchObject({ code: 'budget_exceeded' });
    expect(await reservations.sweep(60_000, Date.now())).toBe(0);
    expect(await reservations.sweep(60_000, Date.now() + 61_000)).toBe(1);
    const after = await keys.get(key._id);
    expect([after.reserved_nano_usd, after.available_nano_usd]).toEqual([0, 100]);
    await store.close();
  });
});

describe('budget leases', () => {
  it('hold a slice of the budget, settle the parts spend events name and take back the undrawn rest', async () => {
    const { store, keys, reservations } = await openReservations();
    const { key } = await keys.create({ name: 'lease', models: ['*'], budgetNanoUsd: 1000, rpm: 0 });
    // At most half of what is left, at least what the asking call needs.
    expect(await reservations.lease(key, null, 'g', `lease_1`, 30, 900, undefined)).toEqual({ granted: 500, perCall: false });
    expect(figures(await keys.get(key._id))).toEqual({ spent: 0, reserved: 500 });
    // Two calls drew 30 each; one spent 12, the other 30 (its whole part): the lease shrinks by both parts.
    await reservations.book.settle(await keys.get(key._id), `lease_1`, 12, 30);
    await reservations.book.settle(await keys.get(key._id), `lease_1`, 30, 30);
    expect(figures(await keys.get(key._id))).toEqual({ spent: 42, reserved: 440 });
    // The next lease gives back the first one's undrawn 400 in the same step; 40 stay held for a call still running.
    expect(await reservations.lease(key, null, 'g', `lease_2`, 30, 100, { leaseId: `lease_1`, unused: 400 })).toEqual({
      granted: 100,
      perCall: false,
    });
    expect(figures(await keys.get(key._id))).toEqual({ spent: 42, reserved: 140 });
    // That running call fails: its part goes back, and the first lease is gone.
    await reservations.book.release(`lease_1`, 40, key._id);
    expect(figures(await keys.get(key._id))).toEqual({ spent: 42, reserved: 100 });
    // A spend naming a lease that is gone is still spend.
    await reservations.book.settle(await keys.get(key._id), `lease_1`, 5, 10);
    expect(figures(await keys.get(key._id))).toEqual({ spent: 47, reserved: 100 });
    // Little left: the grant shrinks to half of it, then to what the call needs, then nothing fits.
    await reservations.book.release(`lease_2`, 100);
    await reservations.book.settle(await keys.get(key._id), 'lease_none', 900, 0);
    expect(await reservations.lease(key, null, 'g', `lease_3`, 10, 1000, undefined)).toEqual({ granted: 26, perCall: false });
    expect(await reservations.lease(key, null, 'g', `lease_4`, 20, 1000, undefined)).toEqual({ granted: 20, perCall: false });
    await expect(reservations.lease(key, null, 'g', `lease_5`, 8, 1000, undefined)).rejects.toMatchObject({ code: 'budget_exceeded' });
    // Leases a crashed caller left go back after 15 minutes, sooner than single holds.
    expect(await reservations.sweep(6 * 3600_000, Date.now() + 16 * 60_000)).toBe(2);
    expect(figures(await keys.get(key._id))).toEqual({ spent: 947, reserved: 0 });
    await store.close();
  });

  it('are not given to keys with rate limits: each of their calls is counted', async () => {
    const { store, keys, reservations } = await openReservations();
    const { key } = await keys.create({ name: 'rpm', models: ['*'], budgetNanoUsd: 1000, rpm: 5 });
    expect(await reservations.lease(key, null, 'g', 'lease_rpm', 10, 100, undefined)).toEqual({ granted: 0, perCall: true });
    await store.close();
  });

  it("do not pass one call's refusal on to calls that waited for its renewal", async () => {
    const { client } = await start();
    const { key } = await client.createKey({ name: 'w', models: ['*'], budgetNanoUsd: 1000, rpm: 0 });
    const leases = new BudgetLeases(client, accountingBudget(client), { ttlMs: 200 });
    cleanup(() => leases.close());
    const claim = (amount: number, id: string) =>
      leases.claim({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: amount, reservationId: id });
    const [big, small] = await Promise.allSettled([claim(5000, 'chatcmpl-big'), claim(100, 'chatcmpl-small')]);
    expect(big).toMatchObject({ status: 'rejected', reason: { code: 'budget_exceeded' } });
    expect(small).toMatchObject({ status: 'fulfilled' });
  });

  it('keep a lease whose renewal failed in transport, and give its rest back when it expires', async () => {
    const calls: string[] = [];
    let failNext = false;
    const fake = {
      leaseBudget: async (input: { leaseId: string; wantNanoUsd: number; previous?: { leaseId: string; unusedNanoUsd: number } }) => {
        calls.push(
          `lease ${input.leaseId.split('_').pop()} previous=${input.previous ? `${input.previous.leaseId.split('_').pop()}:${input.previous.unusedNanoUsd}` : '-'}`,
        );
        if (failNext) throw new GatewayError('service_unavailable');
        return { grantedNanoUsd: 1000, perCall: false };
      },
      releaseReservation: async (hold: { reservationId: string; amountNanoUsd: number }) => {
        calls.push(`release ${hold.reservationId.split('_').pop()}:${hold.amountNanoUsd}`);
      },
    } as unknown as AccountingClient;
    const leases = new BudgetLeases(fake, accountingBudget(fake), { ttlMs: 100 });
    cleanup(() => leases.close());
    const claim = (amount: number, id: string) => leases.claim({ keyId: 'key_x', group: 'g', amountNanoUsd: amount, reservationId: id });
    await claim(600, 'chatcmpl-1');
    failNext = true;
    await expect(claim(500, 'chatcmpl-2')).rejects.toMatchObject({ code: 'service_unavailable' });
    await until(async () => calls.some((c) => c.startsWith('release')), 2000);
    expect(calls).toEqual(['lease 1 previous=-', 'lease 2 previous=1:400', 'release 1:400']);
  });

  it('let a chat service draw most calls locally, never committing more than the budget, and give everything back', async () => {
    const { client, bus } = await start();
    const { key } = await client.createKey({ name: 'l', models: ['*'], budgetNanoUsd: 10_000, rpm: 0 });
    let roundTrips = 0;
    const counted = new Proxy(client, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (name === 'leaseBudget' || name === 'reserveBudget') roundTrips += 1;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const leases = new BudgetLeases(counted, accountingBudget(counted), { ttlMs: 200 });
    cleanup(() => leases.close());
    const claim = (i: number) => leases.claim({ keyId: key.id, group: 'gamma-flash', amountNanoUsd: 100, reservationId: `chatcmpl-${i}` });
    const claims = await Promise.allSettled(Array.from({ length: 150 }, (_, i) => claim(i)));
    const granted = claims.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
    // 100 calls of 100 fit in 10,000; the rest are refused, and few calls paid a round trip.
    expect(granted).toHaveLength(100);
    for (const c of claims) if (c.status === 'rejected') expect(c.reason).toMatchObject({ code: 'budget_exceeded' });
    expect(roundTrips).toBeLessThan(30);
    expect((await client.getUsage(key.id)).reserved_nano_usd).toBe(10_000);
    // Half the calls spend 40, the others fail.
    for (const [i, c] of granted.entries()) {
      if (i % 2 === 0) {
        const event: SpendEvent = {
          id: `chatcmpl-spend-${i}`,
          kind: 'chat',
          key_id: key.id,
          group: 'gamma-flash',
          cost_nano_usd: 40,
          occurred_at: Date.now(),
          ...c,
        };
        await bus.publish(spendSubject('chat'), event.id, event);
      } else await leases.unclaim(key.id, c);
    }
    await until(async () => {
      const usage = await client.getUsage(key.id);
      return usage.spent_nano_usd === 2000 && usage.reserved_nano_usd === 0;
    });
    const usage = await client.getUsage(key.id);
    expect([usage.spent_nano_usd, usage.reserved_nano_usd]).toEqual([2000, 0]);
  });
});
