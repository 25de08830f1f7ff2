import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '@gateway/bus';
import { exampleConfigPath, loadConfig } from '@gateway/config';
import { AccountingClient, spendSubject } from '@gateway/contracts';
import { silentLogger } from '@gateway/logging';
import { type Doc, SqliteStore } from '@gateway/store';
import { describe, expect, it } from 'vitest';
import { startAccounting } from '../src/index.js';
import { KeyRepository } from '../src/domain/keys.js';
import { Ledger } from '../src/domain/ledger.js';
import { utcDay } from '../src/domain/periods.js';
import { Reservations } from '../src/domain/reservations.js';
import { TeamRepository } from '../src/domain/teams.js';
import { eventually } from '../../../test/helpers/wait.js';
import { chatSpend, cleanupAfterEach } from './support.js';

// Chat spend carries the prompt tokens served from the upstream's cache (usage.cached_tokens),
// what they saved and whether the call was billed on an estimate: the ledger row keeps them, and
// the spend log, the daily sums and the key's usage show them. Rows of earlier releases, which
// have none of these fields, read as zeros and keep adding up.

const cleanup = cleanupAfterEach();

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-cache-savings-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Accounting on the embedded store in `dir`; `close` also closes the store. */
async function start(dir: string) {
  const bus = new InProcessBus();
  const service = await startAccounting({
    config: await loadConfig(exampleConfigPath),
    bus,
    store: new SqliteStore(dir),
    logger: silentLogger(),
    env: {},
    listen: '127.0.0.1:0',
  });
  const client = new AccountingClient(service.address);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    client.close();
    await service.close();
    await bus.close();
  };
  cleanup(close);
  return { bus, client, close };
}

const until = (check: () => Promise<boolean>) => eventually(check, 3000);

describe('cached tokens, cache savings and estimates', () => {
  it('land in the ledger row, the spend log, the daily sums and the usage, once', async () => {
    const { bus, client } = await start(await tempDir());
    const { key } = await client.createKey({ name: 'cache', models: ['*'], budgetNanoUsd: 10e9, rpm: 0 });
    const cached = chatSpend(key.id, 'chatcmpl-cached', 1000, {
      usage: { prompt_tokens: 100, completion_tokens: 10, cached_tokens: 80 },
      cache_saved_nano_usd: 400,
    });
    const estimated = chatSpend(key.id, 'chatcmpl-estimated', 500, {
      usage: { prompt_tokens: 20, completion_tokens: 5 },
      estimated: true,
      occurred_at: cached.occurred_at + 1,
    });
    // The first event again: a redelivery changes nothing.
    for (const event of [cached, estimated, cached]) await bus.publish(spendSubject('chat'), event.id, event);
    await until(async () => (await client.getUsage(key.id)).spent_nano_usd === 1500);

    const logs = await client.listSpendLogs({ keyId: key.id });
    expect(logs.entries.map((e) => [e.id, e.usage.cached_tokens ?? 0, e.cache_saved_nano_usd, e.estimated])).toEqual([
      ['chatcmpl-estimated', 0, 0, true],
      ['chatcmpl-cached', 80, 400, false],
    ]);

    const today = utcDay(Date.now());
    const daily = await client.getDailySpend({ keyId: key.id, fromDay: today, toDay: today });
    expect(daily).toEqual([
      { day: today, group: 'gamma-flash', spent_nano_usd: 1500, requests: 2, cached_tokens: 80, cache_saved_nano_usd: 400 },
    ]);
    // Over every key (the totals rows), the same.
    expect(await client.getDailySpend({ fromDay: today, toDay: today })).toEqual(daily);

    const usage = await client.getUsage(key.id);
    expect(usage.groups).toEqual([
      { group: 'gamma-flash', spent_nano_usd: 1500, requests: 2, cached_tokens: 80, cache_saved_nano_usd: 400 },
    ]);
    expect([usage.cached_tokens, usage.cache_saved_nano_usd]).toEqual([80, 400]);
    expect(usage.daily.at(-1)).toMatchObject({ day: today, cached_tokens: 80, cache_saved_nano_usd: 400 });
  });

  it('land the same one event at a time (stores without transactions)', async () => {
    const store = new SqliteStore(await tempDir());
    cleanup(() => store.close());
    const config = await loadConfig(exampleConfigPath);
    const keys = await KeyRepository.open(store, config);
    const reservations = await Reservations.open(store, keys, await TeamRepository.open(store, config));
    const ledger = await Ledger.open(store, keys, reservations);
    const { key } = await keys.create({ name: 'one', models: ['*'], budgetNanoUsd: 10e9, rpm: 0 });
    const event = chatSpend(key._id, 'chatcmpl-one', 900, {
      usage: { prompt_tokens: 30, cached_tokens: 25 },
      cache_saved_nano_usd: 150,
      estimated: true,
    });
    expect(await ledger.apply(event)).toBe(true);
    expect(await ledger.apply(event)).toBe(false);
    const { entries } = await ledger.spendLogs({ keyId: key._id, limit: 10 });
    expect(entries).toMatchObject([{ _id: 'chatcmpl-one', estimated: true, cache_saved_nano_usd: 150, usage: { cached_tokens: 25 } }]);
    const today = utcDay(event.occurred_at);
    expect(await ledger.dailySpend({ fromDay: today, toDay: today })).toEqual([
      { day: today, group: 'gamma-flash', spent_nano_usd: 900, requests: 1, cached_tokens: 25, cache_saved_nano_usd: 150 },
    ]);
  });

  it('read as zeros on rows of earlier releases, which new spend keeps adding to', async () => {
    const dir = await tempDir();
    const first = await start(dir);
    const { key } = await first.client.createKey({ name: 'old', models: ['*'], budgetNanoUsd: 10e9, rpm: 0 });
    await first.close();

    // Written as an earlier release wrote them: no cache fields, no estimate flag; one entry
    // still without its order key (the backfill counts it into its day).
    const now = Date.now();
    const today = utcDay(now);
    const store = new SqliteStore(dir);
    const ledger = await store.collection<Doc & Record<string, unknown>>('accounting_ledger');
    const entry = (id: string, at: number) => ({
      _id: id,
      key_id: key.id,
      team_id: null,
      group: 'gamma-flash',
      kind: 'chat',
      cost_nano_usd: 300,
      occurred_at: new Date(at),
      recorded_at: new Date(at),
      usage: { prompt_tokens: 5, completion_tokens: 16, reasoning_tokens: 7 },
    });
    await ledger.insertOne({ ...entry('chatcmpl-old-1', now - 2), sort_key: `${String(now - 2).padStart(13, '0')}:chatcmpl-old-1` });
    await ledger.insertOne(entry('chatcmpl-old-2', now - 1));
    const day = { day: today, group: 'gamma-flash', spent_nano_usd: 300, requests: 1 };
    await (await store.collection<Doc & Record<string, unknown>>('accounting_daily')).insertOne({
      _id: `${today}|${key.id}|gamma-flash|`,
      key_id: key.id,
      team_id: null,
      ...day,
    });
    await (await store.collection<Doc & Record<string, unknown>>('accounting_daily_totals')).insertOne({
      _id: `${today}|gamma-flash`,
      ...day,
    });
    await store.close();

    const { bus, client } = await start(dir);
    await until(async () => (await client.getDailySpend({ keyId: key.id, fromDay: today, toDay: today }))[0]?.requests === 2);
    const logs = await client.listSpendLogs({ keyId: key.id });
    expect(logs.entries.map((e) => [e.id, e.cache_saved_nano_usd, e.estimated])).toEqual([
      ['chatcmpl-old-2', 0, false],
      ['chatcmpl-old-1', 0, false],
    ]);
    const zeros = { spent_nano_usd: 600, requests: 2, cached_tokens: 0, cache_saved_nano_usd: 0 };
    expect(await client.getDailySpend({ keyId: key.id, fromDay: today, toDay: today })).toEqual([
      { day: today, group: 'gamma-flash', ...zeros },
    ]);
    expect((await client.getUsage(key.id)).groups).toEqual([{ group: 'gamma-flash', ...zeros }]);

    const event = chatSpend(key.id, 'chatcmpl-new', 1000, { usage: { prompt_tokens: 50, cached_tokens: 40 }, cache_saved_nano_usd: 200 });
    await bus.publish(spendSubject('chat'), event.id, event);
    // (The key's balance never saw the rows written by hand: the daily sums are what is checked.)
    await until(async () => (await client.getUsage(key.id)).groups[0]?.requests === 3);
    const sums = { spent_nano_usd: 1600, requests: 3, cached_tokens: 40, cache_saved_nano_usd: 200 };
    expect(await client.getDailySpend({ keyId: key.id, fromDay: today, toDay: today })).toEqual([
      { day: today, group: 'gamma-flash', ...sums },
    ]);
    expect(await client.getDailySpend({ fromDay: today, toDay: today })).toEqual([{ day: today, group: 'gamma-flash', ...sums }]);
    expect((await client.getUsage(key.id)).groups).toEqual([{ group: 'gamma-flash', ...sums }]);
  });
});
