import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Doc, SqliteStore, sqliteDriverAvailable } from '../src/index.js';
import { openSqlite } from '../src/sqlite-driver.js';
import { storeContract } from './contract.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-store-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

// The contract on each binding this Node can run (both on Node ≥ 22.13, libsql alone before).
for (const driver of ['node:sqlite', 'libsql'] as const) {
  if (!sqliteDriverAvailable(driver)) continue;
  storeContract(`embedded (SQLite, ${driver})`, async () => new SqliteStore(await tempDir(), { driver }), { ttlGraceMs: 0 });
}

interface Counter {
  _id: string;
  n: number;
  at?: Date;
  nested?: { when?: Date; list?: Date[] };
}

describe('embedded store (SQLite)', () => {
  it('keeps data across a restart in one gateway.db, with nested Dates intact', async () => {
    const dir = await tempDir();
    const first = new SqliteStore(dir);
    const counters = await first.collection<Counter>('counters', [{ field: 'n', unique: true }]);
    const when = new Date('2026-03-04T05:06:07.089Z');
    await counters.insertOne({ _id: 'k1', n: 1, nested: { when, list: [when] } });
    await counters.updateOne({ _id: 'k1' }, { $inc: { n: 41 }, $set: { at: when } });
    await first.close();
    // The database and, while SQLite keeps them, its WAL and shared-memory index; closing folds the WAL in.
    expect((await readdir(dir)).filter((name) => !/^gateway\.db(-wal|-shm)?$/.test(name))).toEqual([]);
    expect((await stat(join(dir, 'gateway.db-wal')).catch(() => ({ size: 0 }))).size).toBe(0);

    const second = new SqliteStore(dir);
    const again = await second.collection<Counter>('counters', [{ field: 'n', unique: true }]);
    expect(await again.findOne({ _id: 'k1' })).toEqual({ _id: 'k1', n: 42, at: when, nested: { when, list: [when] } });
    expect(await again.findOne({ at: { $gte: when } })).toMatchObject({ _id: 'k1' });
    await second.close();
  });

  it('copies the WAL back once about 4 MiB of it waits, not every round, on each binding', async () => {
    for (const driver of ['node:sqlite', 'libsql'] as const) {
      if (!sqliteDriverAvailable(driver)) continue;
      const dir = await tempDir();
      const store = new SqliteStore(dir, { driver });
      const docs = await store.collection<Counter & { pad: string }>('docs');
      // The WAL index's header, as the checkpoint thread reads it: frames in the WAL, frames copied back.
      const walIndex = async () => {
        const header = await readFile(join(dir, 'gateway.db-shm'));
        const read = (at: number) => (endianness() === 'LE' ? header.readUInt32LE(at) : header.readUInt32BE(at));
        return { frames: read(16), copied: read(96) };
      };
      // A row to a page; each commit writes four or five pages (frames).
      const pad = 'x'.repeat(3000);
      // Past 1 MiB (256 frames), so the thread starts, and under the threshold (1,024).
      for (let i = 0; i < 80; i += 1) await docs.insertOne({ _id: `d${i}`, n: i, pad });
      await expect.poll(() => store.checkpointing, { timeout: 3000, interval: 100 }).toBe(true);
      // Rounds pass (one each 200 ms): nothing is copied back, so the next commit does not restart the WAL.
      await new Promise((resolve) => setTimeout(resolve, 700));
      const waiting = await walIndex();
      expect(waiting.frames).toBeGreaterThan(256);
      expect(waiting.frames).toBeLessThan(1024);
      expect(waiting.copied).toBe(0);
      await docs.insertOne({ _id: 'one-more', n: 0, pad: '' });
      expect((await walIndex()).frames).toBeGreaterThan(waiting.frames);
      // Past about 4 MiB: copied back within a round or two.
      for (let i = 80; i < 300; i += 1) await docs.insertOne({ _id: `d${i}`, n: i, pad });
      await expect.poll(async () => (await walIndex()).copied, { timeout: 3000, interval: 100 }).toBeGreaterThan(1024);
      expect(await docs.countDocuments({})).toBe(301);
      await store.close();
    }
  });

  it('starts its checkpoint thread only once the WAL passes 1 MiB, and folds a small WAL in at close', async () => {
    const dir = await tempDir();
    const store = new SqliteStore(dir);
    const docs = await store.collection<Counter & { pad: string }>('docs');
    await docs.insertOne({ _id: 'one', n: 1, pad: '' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(store.checkpointing).toBe(false);
    const pad = 'x'.repeat(4000);
    for (let i = 0; i < 400; i += 1) await docs.insertOne({ _id: `d${i}`, n: i, pad });
    expect((await stat(join(dir, 'gateway.db-wal'))).size).toBeGreaterThan(1024 * 1024);
    await expect.poll(() => store.checkpointing, { timeout: 3000, interval: 100 }).toBe(true);
    await store.close();
    expect((await stat(join(dir, 'gateway.db-wal')).catch(() => ({ size: 0 }))).size).toBe(0);
    // A fresh store has none.
    const small = new SqliteStore(await tempDir());
    expect(small.checkpointing).toBe(false);
    await small.close();
  });

  it('shares one connection between handles on the same folder; the file closes with the last', async () => {
    const dir = await tempDir();
    const a = new SqliteStore(dir);
    const b = new SqliteStore(dir);
    await (await a.collection<Counter>('shared')).insertOne({ _id: 'x', n: 1 });
    expect(await (await b.collection<Counter>('shared')).findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 1 });
    await a.close();
    await expect(b.ping()).resolves.toBeUndefined();
    await b.close();
    await expect(b.ping()).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('uses the expression index for a declared field', async () => {
    const store = new SqliteStore(await tempDir());
    await store.collection<Counter>('indexed', [{ field: 'n' }]);
    const plan = await planOf(store, `SELECT doc FROM "indexed" WHERE json_extract(doc, '$.n') = 3`);
    expect(plan).toMatch(/USING INDEX indexed__n/);
    await store.close();
  });

  it('answers the spend-log and daily-spend query shapes from compound indexes, in index order', async () => {
    const store = new SqliteStore(await tempDir());
    const ledger = await store.collection<Doc>('ledger', [
      { fields: ['key_id', 'sort_key'] },
      { fields: ['key_id', 'group', 'sort_key'] },
      { fields: ['team_id', 'sort_key'] },
      { fields: ['team_id', 'group', 'sort_key'] },
      { fields: ['group', 'sort_key'] },
      { field: 'sort_key' },
    ]);
    const daily = await store.collection<Doc>('daily', [{ fields: ['key_id', 'day'] }, { fields: ['team_id', 'day'] }, { field: 'day' }]);
    // Some rows, so the planner is not choosing over empty tables.
    await store.atomically(async () => {
      for (let i = 0; i < 500; i += 1) {
        const row = { key_id: `k${i % 50}`, team_id: i % 3 ? null : `t${i % 5}`, group: `g${i % 4}`, sort_key: `${1e12 + i}:c${i}` };
        await ledger.insertOne({ _id: `c${i}`, ...row } as Doc);
        await daily.insertOne({ _id: `d${i}`, day: `2026-11-${String((i % 28) + 1).padStart(2, '0')}`, ...row } as Doc);
      }
    });
    const newest = { sort: { sort_key: -1 }, limit: 101 } as const;
    const shapes: [string, string, RegExp][] = [
      ['ledger', store.explain('ledger', { key_id: 'k1', sort_key: { $lt: 'X' } }, newest), /ledger__key_id__sort_key/],
      [
        'ledger',
        store.explain('ledger', { key_id: 'k1', sort_key: { $gte: 'A', $lt: 'X' }, group: 'g1' }, newest),
        /ledger__key_id__group__sort_key/,
      ],
      ['ledger', store.explain('ledger', { team_id: 't1' }, newest), /ledger__team_id__sort_key/],
      ['ledger', store.explain('ledger', { team_id: 't1', group: 'g2' }, newest), /ledger__team_id__group__sort_key/],
      ['ledger', store.explain('ledger', { group: 'g1' }, newest), /ledger__group__sort_key/],
      ['ledger', store.explain('ledger', { sort_key: { $lt: 'X' } }, newest), /ledger__sort_key/],
      ['ledger', store.explain('ledger', {}, newest), /ledger__sort_key/],
      [
        'daily',
        store.explain('daily', { key_id: 'k1', day: { $gte: '2026-01-01', $lte: '2026-12-31' } }, { sort: { day: 1 } }),
        /daily__key_id__day/,
      ],
      ['daily', store.explain('daily', { team_id: 't1', day: { $gte: '2026-01-01' } }, { sort: { day: 1 } }), /daily__team_id__day/],
    ];
    for (const [, plan, index] of shapes) {
      expect(plan).toMatch(index);
      expect(plan).not.toMatch(/TEMP B-TREE/);
      expect(plan).not.toMatch(/^SCAN \w+$/m);
    }
    await store.close();
  });

  it('adds counters in SQL with the same answers as a read-modify-write, and refuses a row whose fields differ', async () => {
    const store = new SqliteStore(await tempDir());
    const rows = await store.collection<Doc & { day: string; key: string | null; n: number; m?: number }>('counters', [{ field: 'day' }]);
    const bump = (by: number) => rows.updateOne({ _id: 'r', day: '2026-11-24', key: null }, { $inc: { n: by, m: 2 } }, { upsert: true });
    expect(await bump(5)).toBe(true);
    expect(await bump(7)).toBe(true);
    expect(await rows.findOne({ day: '2026-11-24' })).toEqual({ _id: 'r', day: '2026-11-24', key: null, n: 12, m: 4 });
    const clash = await rows
      .updateOne({ _id: 'r', day: '2026-11-25', key: null }, { $inc: { n: 1 } }, { upsert: true })
      .catch((e: unknown) => e);
    expect(clash).toMatchObject({ code: 'duplicate_key' });
    expect((await rows.findOne({ _id: 'r' }))?.n).toBe(12);
    await store.close();
  });

  it('lets an upsert replace an expired document the sweeper has not removed yet', async () => {
    const store = new SqliteStore(await tempDir());
    const windows = await store.collection<Counter & { created_at: Date }>('windows', [{ field: 'created_at', expireAfterSeconds: 60 }]);
    await windows.insertOne({ _id: 'w', n: 41, created_at: new Date(Date.now() - 120_000) });
    const fresh = await windows.findOneAndUpdate({ _id: 'w' }, { $inc: { n: 1 }, $set: { created_at: new Date() } }, { upsert: true });
    expect(fresh?.n).toBe(1);
    expect((await windows.findOne({ _id: 'w' }))?.n).toBe(1);
    await store.close();
  });

  it('tells its write observer of each write operation, once per call, by collection and method', async () => {
    const seen: string[] = [];
    const store = new SqliteStore(await tempDir(), { onWrite: (collection, op) => seen.push(`${collection} ${op}`) });
    const counters = await store.collection<Counter>('counters');
    await counters.insertOne({ _id: 'a', n: 1 });
    await counters.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
    // The counter upsert (SQL) and the general path (read, change, write back) count alike.
    await counters.updateOne({ _id: 'b', n: 0 }, { $inc: { n: 1 } }, { upsert: true });
    await counters.updateOne({ _id: 'nope' }, { $inc: { n: 1 } });
    await counters.findOneAndUpdate({ _id: 'a' }, { $set: { at: new Date() } });
    await counters.deleteMany({ _id: 'b' });
    await counters.find({});
    await counters.countDocuments({});
    expect(seen).toEqual([
      'counters insert_one',
      'counters update_one',
      'counters update_one',
      'counters update_one',
      'counters find_one_and_update',
      'counters delete_many',
    ]);
    await store.close();
  });

  it('atomically: writes land together, or none when the work fails', async () => {
    const store = new SqliteStore(await tempDir());
    const items = await store.collection<Counter>('items');
    await store.atomically(async () => {
      await items.insertOne({ _id: 'a', n: 1 });
      await items.insertOne({ _id: 'b', n: 2 });
    });
    const failed = await store
      .atomically(async () => {
        await items.insertOne({ _id: 'c', n: 3 });
        await items.insertOne({ _id: 'a', n: 4 });
      })
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'duplicate_key' });
    expect((await items.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['a', 'b']);
    // Nested: the inner work that fails is undone alone; the outer one commits the rest.
    await store.atomically(async () => {
      await items.insertOne({ _id: 'd', n: 5 });
      await store
        .atomically(async () => {
          await items.insertOne({ _id: 'e', n: 6 });
          throw new Error('inner');
        })
        .catch(() => undefined);
      await items.insertOne({ _id: 'f', n: 7 });
    });
    expect((await items.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['a', 'b', 'd', 'f']);
    await store.close();
  });

  it('sweeps expired documents in batches and reads never return them', async () => {
    const store = new SqliteStore(await tempDir());
    const events = await store.collection<Counter>('events', [{ field: 'at', expireAfterSeconds: 60 }]);
    const old = new Date(Date.now() - 120_000);
    for (let i = 0; i < 1200; i += 1) await events.insertOne({ _id: `old${i}`, n: i, at: old });
    await events.insertOne({ _id: 'fresh', n: -1, at: new Date() });
    expect(await events.countDocuments({})).toBe(1);
    expect(await store.sweepExpired()).toBe(1200);
    expect(await events.countDocuments({})).toBe(1);
    await store.close();
  });
});

async function planOf(store: SqliteStore, sql: string): Promise<string> {
  const db = openSqlite(store.driver, store.file, { readOnly: true });
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('\n');
  } finally {
    db.close();
  }
}
