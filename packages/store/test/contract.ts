import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDuplicateKey, type Doc, type DocumentStore } from '../src/index.js';

// The store contract: what every adapter of the store port must do. Run by embedded.test.ts
// every time, and by mongodb.test.ts against a real server when one is reachable.

interface Account extends Doc {
  owner: string;
  balance: number;
  tags?: string[];
  stats?: { requests?: number; spent?: number };
  created_at?: Date;
}

export interface ContractOptions {
  /** How long after expiry the adapter may take to drop a TTL-indexed document. */
  ttlGraceMs: number;
  /** False reports the suite as skipped (an adapter whose server is not reachable here). */
  enabled?: boolean;
}

export function storeContract(name: string, open: () => Promise<DocumentStore>, options: ContractOptions): void {
  describe.runIf(options.enabled ?? true)(`store contract: ${name}`, () => {
    let store: DocumentStore;
    let run = 0;
    const fresh = () => `c${Date.now().toString(36)}_${(run += 1)}`;

    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('answers ping while open', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('inserts and finds a document by _id and by field, Dates intact', async () => {
      const accounts = await store.collection<Account>(fresh());
      const created = new Date('2026-01-02T03:04:05.678Z');
      await accounts.insertOne({ _id: 'a1', owner: 'ann', balance: 5, tags: ['x'], created_at: created });
      const byId = await accounts.findOne({ _id: 'a1' });
      expect(byId).toMatchObject({ _id: 'a1', owner: 'ann', balance: 5, tags: ['x'] });
      expect(byId?.created_at).toBeInstanceOf(Date);
      expect(byId?.created_at?.getTime()).toBe(created.getTime());
      expect(await accounts.findOne({ owner: 'ann' })).toMatchObject({ _id: 'a1' });
      expect(await accounts.findOne({ owner: 'nobody' })).toBeNull();
    });

    it('serves range and order queries on compound indexes, and keeps compound unique ones unique', async () => {
      interface Row extends Doc {
        key: string;
        at: string;
        n: number;
      }
      const rows = await store.collection<Row>(fresh(), [{ fields: ['key', 'at'] }, { fields: ['n', 'key'], unique: true }]);
      for (let i = 0; i < 12; i += 1)
        await rows.insertOne({ _id: `r${i}`, key: i % 2 ? 'odd' : 'even', at: `t${String(i).padStart(2, '0')}`, n: i });
      const newest = await rows.find({ key: 'odd', at: { $lt: 't09' } }, { sort: { at: -1 }, limit: 3 });
      expect(newest.map((r) => r._id)).toEqual(['r7', 'r5', 'r3']);
      const oldest = await rows.find({ key: 'even', at: { $gte: 't02', $lte: 't08' } }, { sort: { at: 1 } });
      expect(oldest.map((r) => r._id)).toEqual(['r2', 'r4', 'r6', 'r8']);
      const twice = await rows.insertOne({ _id: 'again', key: 'odd', at: 'x', n: 3 }).catch((e: unknown) => e);
      expect(isDuplicateKey(twice)).toBe(true);
      await rows.insertOne({ _id: 'other', key: 'even', at: 'x', n: 3 });
    });

    it('rejects a duplicate _id and a duplicate unique field with duplicate_key', async () => {
      const accounts = await store.collection<Account>(fresh(), [{ field: 'owner', unique: true }]);
      await accounts.insertOne({ _id: 'a1', owner: 'ann', balance: 0 });
      const sameId = await accounts.insertOne({ _id: 'a1', owner: 'bob', balance: 0 }).catch((e: unknown) => e);
      expect(isDuplicateKey(sameId)).toBe(true);
      const sameOwner = await accounts.insertOne({ _id: 'a2', owner: 'ann', balance: 0 }).catch((e: unknown) => e);
      expect(isDuplicateKey(sameOwner)).toBe(true);
      expect(await accounts.countDocuments({})).toBe(1);
    });

    it('inserts many documents in one call, and refuses a taken _id with duplicate_key', async () => {
      const accounts = await store.collection<Account>(fresh());
      await accounts.insertMany([]);
      const created = new Date('2026-01-02T03:04:05.678Z');
      await accounts.insertMany([
        { _id: 'a1', owner: 'ann', balance: 1, created_at: created },
        { _id: 'a2', owner: 'bob', balance: 2 },
      ]);
      expect((await accounts.find({}, { sort: { _id: 1 } })).map((a) => [a._id, a.balance])).toEqual([
        ['a1', 1],
        ['a2', 2],
      ]);
      expect((await accounts.findOne({ _id: 'a1' }))?.created_at?.getTime()).toBe(created.getTime());
      const taken = await accounts.insertMany([{ _id: 'a2', owner: 'cid', balance: 3 }]).catch((e: unknown) => e);
      expect(isDuplicateKey(taken)).toBe(true);
    });

    it('runs a transaction whole, or none of it when the work fails (where the store has transactions)', async () => {
      if (!store.transactional) {
        await expect(store.transaction(async () => 1)).rejects.toMatchObject({ code: 'unsupported' });
        return;
      }
      const accounts = await store.collection<Account>(fresh());
      await accounts.insertOne({ _id: 'a', owner: 'ann', balance: 10 });
      const result = await store.transaction(async () => {
        await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -4 } });
        await accounts.insertMany([{ _id: 'b', owner: 'bob', balance: 4 }]);
        // The transaction reads its own writes.
        return (await accounts.findOne({ _id: 'a' }))?.balance;
      });
      expect(result).toBe(6);
      const failed = await store
        .transaction(async () => {
          await accounts.updateOne({ _id: 'a' }, { $inc: { balance: -6 } });
          await accounts.insertMany([{ _id: 'c', owner: 'cid', balance: 6 }]);
          throw new Error('interrupted');
        })
        .catch((e: unknown) => e);
      expect(failed).toMatchObject({ message: 'interrupted' });
      expect((await accounts.find({}, { sort: { _id: 1 } })).map((a) => [a._id, a.balance])).toEqual([
        ['a', 6],
        ['b', 4],
      ]);
    });

    it('finds with operators, sorts and limits', async () => {
      const accounts = await store.collection<Account>(fresh());
      for (let i = 0; i < 6; i += 1) {
        await accounts.insertOne({ _id: `a${i}`, owner: i % 2 ? 'odd' : 'even', balance: i });
      }
      const rich = await accounts.find({ balance: { $gte: 3 } }, { sort: { balance: -1 } });
      expect(rich.map((a) => a._id)).toEqual(['a5', 'a4', 'a3']);
      const page = await accounts.find({ _id: { $gt: 'a1' } }, { sort: { _id: 1 }, limit: 2 });
      expect(page.map((a) => a._id)).toEqual(['a2', 'a3']);
      const some = await accounts.find({ _id: { $in: ['a0', 'a5', 'zz'] }, owner: { $ne: 'odd' } });
      expect(some.map((a) => a._id)).toEqual(['a0']);
      const either = await accounts.find({ $or: [{ balance: 0 }, { balance: 5 }] }, { sort: { _id: 1 } });
      expect(either.map((a) => a._id)).toEqual(['a0', 'a5']);
      expect(await accounts.countDocuments({ owner: 'odd' })).toBe(3);
      expect(await accounts.countDocuments({ tags: { $exists: true } })).toBe(0);
    });

    it('updates one document with $set, $inc on dotted paths and $unset', async () => {
      const accounts = await store.collection<Account>(fresh());
      await accounts.insertOne({ _id: 'a1', owner: 'ann', balance: 1, tags: ['x'] });
      expect(
        await accounts.updateOne(
          { _id: 'a1' },
          { $set: { owner: 'anna' }, $inc: { balance: 2, 'stats.requests': 1 }, $unset: { tags: true } },
        ),
      ).toBe(true);
      expect(await accounts.updateOne({ _id: 'missing' }, { $set: { owner: 'x' } })).toBe(false);
      const after = await accounts.findOne({ _id: 'a1' });
      expect(after).toMatchObject({ owner: 'anna', balance: 3, stats: { requests: 1 } });
      expect(after?.tags).toBeUndefined();
    });

    it("upserts from the filter's equality fields", async () => {
      const accounts = await store.collection<Account>(fresh());
      expect(await accounts.updateOne({ _id: 'k|g', owner: 'ann' }, { $inc: { 'stats.spent': 7, balance: 1 } }, { upsert: true })).toBe(
        true,
      );
      const twice = await accounts.findOneAndUpdate(
        { _id: 'k|g', owner: 'ann' },
        { $inc: { 'stats.spent': 3, balance: 1 } },
        { upsert: true },
      );
      expect(twice).toMatchObject({ _id: 'k|g', owner: 'ann', balance: 2, stats: { spent: 10 } });
      expect(await accounts.countDocuments({})).toBe(1);
    });

    it('findOneAndUpdate is atomic: a guarded decrement never overdraws under concurrency', async () => {
      const accounts = await store.collection<Account>(fresh());
      await accounts.insertOne({ _id: 'a1', owner: 'ann', balance: 10 });
      const attempts = await Promise.all(
        Array.from({ length: 40 }, () => accounts.findOneAndUpdate({ _id: 'a1', balance: { $gte: 1 } }, { $inc: { balance: -1 } })),
      );
      expect(attempts.filter((a) => a !== null)).toHaveLength(10);
      expect((await accounts.findOne({ _id: 'a1' }))?.balance).toBe(0);
      const returned = attempts.find((a) => a !== null);
      expect(returned?.balance).toBeGreaterThanOrEqual(0);
    });

    it('deletes matching documents', async () => {
      const accounts = await store.collection<Account>(fresh());
      for (const id of ['a', 'b', 'c']) await accounts.insertOne({ _id: id, owner: id === 'c' ? 'keep' : 'drop', balance: 0 });
      expect(await accounts.deleteMany({ owner: 'drop' })).toBe(2);
      expect((await accounts.find({})).map((a) => a._id)).toEqual(['c']);
    });

    it(
      'drops documents past a TTL index',
      async () => {
        const accounts = await store.collection<Account>(fresh(), [{ field: 'created_at', expireAfterSeconds: 1 }]);
        await accounts.insertOne({ _id: 'old', owner: 'ann', balance: 0, created_at: new Date(Date.now() - 60_000) });
        await accounts.insertOne({ _id: 'new', owner: 'bob', balance: 0, created_at: new Date() });
        const deadline = Date.now() + options.ttlGraceMs;
        while ((await accounts.findOne({ _id: 'old' })) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        expect(await accounts.findOne({ _id: 'old' })).toBeNull();
        expect(await accounts.findOne({ _id: 'new' })).not.toBeNull();
      },
      options.ttlGraceMs + 10_000,
    );
  });
}
