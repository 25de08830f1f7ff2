import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '@gateway/store';
import { describe, expect, it } from 'vitest';
import { InProcessBus, openOutbox, subjectMatches, type BusEvent } from '../src/index.js';
import { eventually } from '../../../test/helpers/wait.js';

const until = (check: () => boolean | Promise<boolean>, ms = 2000) => eventually(check, ms);

describe('subjectMatches', () => {
  it('follows NATS wildcards', () => {
    expect(subjectMatches('spend.v1.>', 'spend.v1.chat')).toBe(true);
    expect(subjectMatches('spend.v1.>', 'spend.v1')).toBe(false);
    expect(subjectMatches('spend.*.chat', 'spend.v1.chat')).toBe(true);
    expect(subjectMatches('spend.*', 'spend.v1.chat')).toBe(false);
    expect(subjectMatches('keys.v1.changed', 'keys.v1.changed')).toBe(true);
    expect(subjectMatches('keys.v1.changed', 'keys.v1.changed.x')).toBe(false);
  });
});

describe('InProcessBus', () => {
  it('delivers durable events once per id, including those published before the consumer', async () => {
    const bus = new InProcessBus();
    await bus.publish('spend.v1.chat', 'e1', { n: 1 });
    await bus.publish('spend.v1.chat', 'e1', { n: 1 });
    const seen: BusEvent<{ n: number }>[] = [];
    await bus.consume<{ n: number }>('spend.v1.>', 'accounting', async (event) => {
      seen.push(event);
    });
    await bus.publish('spend.v1.video', 'e2', { n: 2 });
    await until(() => seen.length === 2);
    expect(seen.map((e) => [e.subject, e.id, e.data.n])).toEqual([
      ['spend.v1.chat', 'e1', 1],
      ['spend.v1.video', 'e2', 2],
    ]);
    await bus.close();
  });

  it('hands a published object to its consumer as it is, never calling its wire encoder, and keeps it in the outbox as JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-bus-'));
    try {
      const store = new SqliteStore(dir);
      const outbox = await openOutbox(store, { byDueTime: false });
      const bus = await InProcessBus.open({ outbox });
      let encoded = 0;
      const wire = (data: { n: number }) => {
        encoded += 1;
        return new Uint8Array([data.n]);
      };
      const event = { n: 7 };
      await bus.publish('spend.v1.chat', 'w1', event, wire);
      expect((await outbox.find({})).map((entry) => entry.data)).toEqual([{ n: 7 }]);
      const seen: unknown[] = [];
      await bus.consume('spend.v1.>', 'accounting', async (delivered) => {
        seen.push(delivered.data);
      });
      await until(() => seen.length === 1);
      expect(seen[0]).toBe(event);
      expect(encoded).toBe(0);
      await bus.close();
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('handle what was queued before a consumer closes (a shutdown loses no spend)', async () => {
    const bus = new InProcessBus();
    const applied: string[] = [];
    const subscription = await bus.consume('spend.v1.>', 'accounting', async (event) => {
      await new Promise((r) => setTimeout(r, 2));
      applied.push(event.id);
    });
    for (let i = 0; i < 20; i += 1) await bus.publish('spend.v1.chat', `e${i}`, { i });
    await subscription.close();
    expect(applied).toHaveLength(20);
    await bus.close();
  });

  it('redelivers an event until its handler succeeds, in order', async () => {
    const bus = new InProcessBus({ retryDelayMs: 1 });
    let failures = 2;
    const applied: string[] = [];
    await bus.consume('spend.v1.>', 'accounting', async (event) => {
      if (event.id === 'a' && failures > 0) {
        failures -= 1;
        throw new Error('store down');
      }
      applied.push(event.id);
    });
    await bus.publish('spend.v1.chat', 'a', {});
    await bus.publish('spend.v1.chat', 'b', {});
    await until(() => applied.length === 2);
    expect(applied).toEqual(['a', 'b']);
    await bus.close();
  });

  it('broadcasts to live subscribers only, and a closed subscription hears nothing', async () => {
    const bus = new InProcessBus();
    await bus.broadcast('keys.v1.changed', { key_id: 'early' });
    const heard: string[] = [];
    const sub = await bus.subscribe<{ key_id: string }>('keys.v1.changed', (data) => heard.push(data.key_id));
    await bus.broadcast('keys.v1.changed', { key_id: 'k1' });
    await sub.close();
    await bus.broadcast('keys.v1.changed', { key_id: 'k2' });
    expect(heard).toEqual(['k1']);
    await bus.close();
    await expect(bus.ping()).rejects.toThrow();
  });
});

describe('InProcessBus with an outbox', () => {
  it('keeps an encoded (binary) event in the outbox as base64 and hands the same bytes to the next run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-bus-'));
    try {
      const bytes = new Uint8Array([0, 1, 2, 250, 255]);
      const first = new SqliteStore(dir);
      const dying = await InProcessBus.open({ outbox: await openOutbox(first, { byDueTime: false }) });
      await dying.publish('spend.v1.chat', 'b1', bytes);
      const [stored] = await (await openOutbox(first, { byDueTime: false })).find({});
      expect(stored?.data).toEqual({ $base64: Buffer.from(bytes).toString('base64') });
      await first.close();
      const second = new SqliteStore(dir);
      const bus = await InProcessBus.open({ outbox: await openOutbox(second, { byDueTime: false }) });
      const seen: unknown[] = [];
      await bus.consume('spend.v1.>', 'accounting', async (event) => {
        seen.push(event.data);
      });
      await until(() => seen.length === 1);
      expect(seen[0]).toBeInstanceOf(Uint8Array);
      expect([...(seen[0] as Uint8Array)]).toEqual([...bytes]);
      await bus.close();
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps each event on disk until its consumer handled it, so a run that died hands it to the next', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-bus-'));
    try {
      // A run that publishes and dies before its consumer gets to the events (no close, no drain).
      const first = new SqliteStore(dir);
      const dying = await InProcessBus.open({ outbox: await openOutbox(first, { byDueTime: false }) });
      await dying.publish('spend.v1.chat', 'e1', { n: 1 });
      await dying.publish('spend.v1.chat', 'e1', { n: 1 });
      await dying.publish('spend.v1.chat', 'e2', { n: 2 });
      expect((await dying.stats()).outboxDepth).toBe(2);
      await first.close();

      const second = new SqliteStore(dir);
      const outbox = await openOutbox(second, { byDueTime: false });
      const bus = await InProcessBus.open({ outbox });
      const seen: string[] = [];
      await bus.consume('spend.v1.>', 'accounting', async (event) => {
        seen.push(event.id);
      });
      await bus.publish('spend.v1.chat', 'e3', { n: 3 });
      await until(async () => seen.length === 3 && (await outbox.countDocuments({})) === 0);
      expect(seen).toEqual(['e1', 'e2', 'e3']);
      // A handler that fails keeps its event in the outbox until it succeeds.
      let fail = true;
      const failing = await InProcessBus.open({ outbox, retryDelayMs: 5 });
      await failing.consume('spend.v1.>', 'other', async () => {
        if (fail) throw new Error('not yet');
      });
      await failing.publish('spend.v1.chat', 'e4', { n: 4 });
      await new Promise((r) => setTimeout(r, 30));
      expect(await outbox.countDocuments({ _id: 'e4' })).toBe(1);
      fail = false;
      await until(async () => (await outbox.countDocuments({})) === 0);
      await bus.close();
      await failing.close();
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('applies a backlog in transactions of many events, and one failing event holds back only itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-bus-'));
    const store = new SqliteStore(dir);
    try {
      const outbox = await openOutbox(store, { byDueTime: false });
      const applied = await store.collection<{ _id: string }>('applied');
      const bus = await InProcessBus.open({ outbox, retryDelayMs: 5, atomically: (work) => store.atomically(work) });
      for (let i = 1; i <= 5; i += 1) await bus.publish('spend.v1.chat', `e${i}`, { i });
      let failing = true;
      // A handler whose writes would fail on a second application (duplicate id): every event is applied once.
      await bus.consume('spend.v1.>', 'accounting', async (event) => {
        await applied.insertOne({ _id: event.id });
        if (event.id === 'e3' && failing) throw new Error('not yet');
      });
      await until(async () => (await applied.countDocuments({})) === 2);
      await new Promise((r) => setTimeout(r, 30));
      expect((await applied.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['e1', 'e2']);
      expect(await outbox.countDocuments({})).toBe(3);
      failing = false;
      await until(async () => (await outbox.countDocuments({})) === 0);
      expect((await applied.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
      await bus.close();
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes the events published in one turn to the outbox in one transaction, a repeated id once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-bus-'));
    const writes: string[] = [];
    const store = new SqliteStore(dir, { onWrite: (collection, op) => writes.push(`${collection} ${op}`) });
    try {
      const outbox = await openOutbox(store, { byDueTime: false });
      const bus = await InProcessBus.open({ outbox });
      writes.length = 0;
      // Twenty publishers in the same turn, one of them repeating an id already taken by another.
      await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => bus.publish('spend.v1.chat', `g${i}`, { i })),
        bus.publish('spend.v1.chat', 'g3', { i: 3 }),
      ]);
      expect(await outbox.countDocuments({})).toBe(20);
      // The batch held the repeated id, so it went again one entry at a time: 1 failed insert_many + 21 insert_one.
      expect(writes.filter((w) => w === 'bus_outbox insert_many')).toHaveLength(1);
      writes.length = 0;
      await Promise.all(Array.from({ length: 20 }, (_, i) => bus.publish('spend.v1.chat', `h${i}`, { i })));
      expect(writes).toEqual(['bus_outbox insert_many']);
      const seen: string[] = [];
      await bus.consume('spend.v1.>', 'accounting', async (event) => {
        seen.push(event.id);
      });
      await until(() => seen.length === 40);
      expect(new Set(seen).size).toBe(40);
      await bus.close();
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("holds a lone event its window for a batch consumer (off the turn of the caller's next request), not for a per-event one", async () => {
    const bus = new InProcessBus();
    const batches: string[][] = [];
    const each: string[] = [];
    await bus.consumeBatches(
      'spend.v1.>',
      'accounting',
      async (events) => {
        batches.push(events.map((event) => event.id));
      },
      { windowMs: 50 },
    );
    await bus.consume('video.v1.>', 'video', async (event) => {
      each.push(event.id);
    });
    // Past the consumers' first drain (at once: what a previous run left).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    await bus.publish('spend.v1.chat', 'lone', {});
    await bus.publish('video.v1.job', 'job', {});
    for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(each).toEqual(['job']);
    expect(batches).toEqual([]);
    await expect.poll(() => batches, { timeout: 1000, interval: 5 }).toEqual([['lone']]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
    await bus.close();
  });

  it('lets a reader wait until a batch consumer applied what was published before it, cutting its window short', async () => {
    const bus = new InProcessBus();
    const applied: string[] = [];
    let failing = false;
    await bus.consumeBatches(
      'spend.v1.>',
      'accounting',
      async (events) => {
        if (failing) throw new Error('store away');
        for (const event of events) applied.push(event.id);
      },
      { windowMs: 5_000 },
    );
    // Nothing waits: at once.
    await bus.caughtUp('accounting');
    await bus.caughtUp('nobody');
    // Under load (events close together) the consumer would wait out its 5 s window for more.
    for (let i = 0; i < 5; i += 1) await bus.publish('spend.v1.chat', `w${i}`, { i });
    const started = performance.now();
    await bus.caughtUp('accounting');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(applied).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
    // A handler that keeps failing holds a reader for its timeout only.
    failing = true;
    await bus.publish('spend.v1.chat', 'w5', {});
    const waited = performance.now();
    await bus.caughtUp('accounting', 100);
    expect(performance.now() - waited).toBeGreaterThanOrEqual(90);
    expect(applied).not.toContain('w5');
    failing = false;
    await bus.caughtUp('accounting');
    expect(applied).toContain('w5');
    await bus.close();
  });
});
