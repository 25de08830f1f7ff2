import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../src/index.js';
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

storeContract('embedded (SQLite)', async () => new SqliteStore(await tempDir()), { ttlGraceMs: 0 });

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
  const { default: Database } = await import('libsql');
  const db = new Database(store.file, { readonly: true });
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('\n');
  } finally {
    db.close();
  }
}
