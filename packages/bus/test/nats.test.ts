import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsServer } from '../../../test/helpers/nats-server.js';
import type { NatsBus, BusEvent } from '../src/index.js';
import { openTestBus } from './nats-bus.js';
import { eventually } from '../../../test/helpers/wait.js';

// Against a real nats-server with JetStream, started for this run on a free port.

let nats: NatsServer;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  nats = await NatsServer.start();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await nats.destroy();
});

async function bus(name: string, streamName = 'SPEND'): Promise<NatsBus> {
  const opened = await openTestBus(nats.url, name, { streamName, publishTimeoutMs: 1000 });
  cleanups.push(opened.cleanup);
  return opened.bus;
}

const until = (check: () => boolean | Promise<boolean>, ms = 10_000) => eventually(check, ms);

describe('NatsBus', () => {
  it('delivers each event id once, including events published before the consumer started', async () => {
    const publisher = await bus('publisher');
    await publisher.publish('spend.v1.chat', 'evt-1', { n: 1 });
    await publisher.publish('spend.v1.chat', 'evt-1', { n: 1 });
    const consumerBus = await bus('consumer');
    const seen: BusEvent<{ n: number }>[] = [];
    await consumerBus.consume<{ n: number }>('spend.v1.>', 'test-once', async (event) => {
      seen.push(event);
    });
    await publisher.publish('spend.v1.video', 'evt-2', { n: 2 });
    await until(() => seen.length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.map((e) => [e.subject, e.id, e.data.n])).toEqual([
      ['spend.v1.chat', 'evt-1', 1],
      ['spend.v1.video', 'evt-2', 2],
    ]);
  });

  it('redelivers an event until its handler succeeds', async () => {
    const b = await bus('redeliver');
    let failures = 2;
    const applied: string[] = [];
    await b.consume('spend.v1.>', 'test-redeliver', async (event) => {
      if (event.id === 'evt-r' && failures > 0) {
        failures -= 1;
        throw new Error('store down');
      }
      if (event.id === 'evt-r') applied.push(event.id);
    });
    await b.publish('spend.v1.chat', 'evt-r', {});
    await until(() => applied.length === 1);
    expect(failures).toBe(0);
  });

  it('sends events published together in one message, each handled under its own id, a failed batch redelivered whole', async () => {
    const b = await bus('batcher');
    const nc = await connect({ servers: nats.url });
    cleanups.push(async () => {
      await nc.close();
    });
    const jsm = await nc.jetstreamManager();
    const messagesBefore = (await jsm.streams.info('SPEND')).state.messages;
    const handled = new Map<string, number>();
    let failOnce = true;
    await b.consume('spend.v1.>', 'test-batches', async (event) => {
      if (!event.id.startsWith('batch-evt-')) return;
      if (event.id === 'batch-evt-7' && failOnce) {
        failOnce = false;
        throw new Error('store down');
      }
      handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
    });
    await Promise.all(Array.from({ length: 40 }, (_, i) => b.publish('spend.v1.chat', `batch-evt-${i}`, { i })));
    await until(() => handled.size === 40);
    // Fewer messages than events: those published during a round trip travelled together.
    expect((await jsm.streams.info('SPEND')).state.messages - messagesBefore).toBeLessThan(40);
    // Every event handled; those before the failure in its batch were handled again on redelivery
    // (the consumer's ledger recognises them by id).
    for (let i = 0; i < 40; i += 1) expect(handled.get(`batch-evt-${i}`), `batch-evt-${i}`).toBeGreaterThanOrEqual(1);
  });

  it('hands a batch consumer the events of messages that arrive together, acks them after it, and retries a failed one', async () => {
    const publisher = await bus('batch-publisher');
    const consumerBus = await bus('batch-consumer');
    const batches: string[][] = [];
    let failOnce = true;
    await consumerBus.consumeBatches(
      'spend.v1.>',
      'test-consume-batches',
      async (events) => {
        const ids = events.map((e) => e.id).filter((id) => id.startsWith('cb-evt-'));
        if (ids.length === 0) return;
        if (ids.includes('cb-evt-33') && failOnce) {
          failOnce = false;
          throw new Error('store down');
        }
        batches.push(ids);
      },
      { maxEvents: 64, windowMs: 20 },
    );
    // A lone event first: handed over alone, at once.
    const started = Date.now();
    await publisher.publish('spend.v1.chat', 'cb-evt-alone', {});
    await until(() => batches.length === 1);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(batches[0]).toEqual(['cb-evt-alone']);
    // Then a burst: several messages (publishes during a round trip travel together), fewer batches.
    for (let round = 0; round < 4; round += 1) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => publisher.publish('spend.v1.chat', `cb-evt-${round * 20 + i}`, { i })));
    }
    await until(() => new Set(batches.flat()).size === 81);
    const handled = batches.slice(1).flat();
    expect(new Set(handled).size).toBe(80);
    expect(batches.every((batch) => batch.length <= 64 || batch.length === 1)).toBe(true);
    // The failed batch was handled again a message at a time, each event once in the end.
    expect(handled.filter((id) => id === 'cb-evt-33')).toHaveLength(1);
    expect(batches.length - 1).toBeLessThan(80);
    // Acked: a consumer started again under the same durable name gets nothing more.
    await new Promise((r) => setTimeout(r, 300));
    const again: string[] = [];
    const second = await bus('batch-consumer-2');
    await second.consumeBatches('spend.v1.>', 'test-consume-batches', async (events) => {
      again.push(...events.map((e) => e.id).filter((id) => id.startsWith('cb-evt-')));
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(again).toEqual([]);
  });

  it('carries encoded (binary) events as bytes, alone and batched, and broadcasts bytes', async () => {
    const b = await bus('bytes');
    const handled = new Map<string, number[]>();
    await b.consume<Uint8Array>('spend.v1.>', 'test-bytes', async (event) => {
      if (event.id.startsWith('bytes-evt-')) handled.set(event.id, [...event.data]);
    });
    const heard: number[][] = [];
    await b.subscribe<Uint8Array>('keys.v1.bytes', (data) => heard.push([...data]));
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all(Array.from({ length: 30 }, (_, i) => b.publish('spend.v1.chat', `bytes-evt-${i}`, new Uint8Array([i, 255 - i]))));
    await b.broadcast('keys.v1.bytes', new Uint8Array([7, 8]));
    await until(() => handled.size === 30 && heard.length === 1);
    for (let i = 0; i < 30; i += 1) expect(handled.get(`bytes-evt-${i}`)).toEqual([i, 255 - i]);
    expect(heard).toEqual([[7, 8]]);
  });

  it("sends an event published with its wire encoder as the encoder's bytes, and fails the publish when the encoder throws", async () => {
    const b = await bus('wire');
    const handled = new Map<string, unknown>();
    await b.consume<unknown>('spend.v1.>', 'test-wire', async (event) => {
      if (event.id.startsWith('wire-evt-')) handled.set(event.id, event.data);
    });
    await new Promise((r) => setTimeout(r, 50));
    await b.publish('spend.v1.chat', 'wire-evt-1', { n: 5 }, (data) => new Uint8Array([data.n, 1]));
    await until(() => handled.size === 1);
    const data = handled.get('wire-evt-1');
    expect(data).toBeInstanceOf(Uint8Array);
    expect([...(data as Uint8Array)]).toEqual([5, 1]);
    await expect(
      b.publish('spend.v1.chat', 'wire-evt-2', { n: 6 }, () => {
        throw new Error('cannot encode');
      }),
    ).rejects.toThrow('cannot encode');
  });

  it('broadcasts to every live subscriber across connections', async () => {
    const [a, c] = [await bus('a'), await bus('c')];
    const heard: string[] = [];
    await c.subscribe<{ key_id: string }>('keys.v1.changed', (data) => heard.push(data.key_id));
    await new Promise((r) => setTimeout(r, 50));
    await a.broadcast('keys.v1.changed', { key_id: 'k1' });
    await until(() => heard.length === 1);
    expect(heard).toEqual(['k1']);
  });

  it('keeps events in the outbox while NATS is down and delivers them once it is back', async () => {
    const producer = await bus('producer');
    const consumerBus = await bus('outbox-consumer');
    const seen: string[] = [];
    await consumerBus.consume('spend.v1.>', 'test-outbox', async (event) => {
      seen.push(event.id);
    });
    await nats.stop();
    await expect(producer.ping()).rejects.toThrow();
    // Once the client knows NATS is away, events go to the outbox at once, not after a timeout.
    const started = Date.now();
    await producer.publish('spend.v1.chat', 'evt-down-1', { n: 1 });
    await producer.publish('spend.v1.chat', 'evt-down-2', { n: 2 });
    expect(Date.now() - started).toBeLessThan(500);
    expect(await producer.outboxSize()).toBe(2);
    await nats.restart();
    await until(async () => (await producer.outboxSize()) === 0, 20_000);
    await until(() => seen.includes('evt-down-1') && seen.includes('evt-down-2'), 20_000);
    await producer.ping();
    expect(seen.filter((id) => id.startsWith('evt-down')).sort()).toEqual(['evt-down-1', 'evt-down-2']);
  }, 60_000);
});
