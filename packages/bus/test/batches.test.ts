import { describe, expect, it } from 'vitest';
import { BatchQueue, type Delivery } from '../src/batches.js';
import { InProcessBus, type BusEvent } from '../src/index.js';
import { eventually } from '../../../test/helpers/wait.js';

// How a durable consumer's deliveries become batches: at once when alone, gathered under load,
// bounded, acknowledged only after the batch's handler resolved, and a failed batch retried a
// delivery at a time.

interface Tracked extends Delivery<number> {
  acked: boolean;
  nakedAfterMs: number | undefined;
}

function delivery(...ids: string[]): Tracked {
  const tracked: Tracked = {
    events: ids.map((id, i) => ({ subject: 'spend.v1.chat', id, data: i })),
    acked: false,
    nakedAfterMs: undefined,
    ack: () => {
      tracked.acked = true;
    },
    nak: (delayMs) => {
      tracked.nakedAfterMs = delayMs;
    },
  };
  return tracked;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BatchQueue', () => {
  it('hands a lone delivery over at the next turn, whatever the window', async () => {
    const batches: string[][] = [];
    const queue = new BatchQueue<number>({
      handler: async (events) => {
        batches.push(events.map((e) => e.id));
      },
      maxEvents: 100,
      windowMs: 10_000,
      onFailure: () => {},
    });
    const started = performance.now();
    const only = delivery('a');
    await queue.add(only);
    await queue.idle();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(batches).toEqual([['a']]);
    expect(only.acked).toBe(true);
  });

  it('gathers deliveries that arrive together into one batch, acknowledged only after its handler resolved', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batches: string[][] = [];
    const queue = new BatchQueue<number>({
      handler: async (events) => {
        batches.push(events.map((e) => e.id));
        await gate;
      },
      maxEvents: 100,
      windowMs: 5,
      onFailure: () => {},
    });
    const deliveries = [delivery('a', 'b'), delivery('c'), delivery('d', 'e', 'f')];
    for (const d of deliveries) await queue.add(d);
    await eventually(() => batches.length === 1, 2000);
    expect(batches).toEqual([['a', 'b', 'c', 'd', 'e', 'f']]);
    expect(deliveries.some((d) => d.acked)).toBe(false);
    release();
    await queue.idle();
    expect(deliveries.every((d) => d.acked)).toBe(true);
  });

  it('under load waits out the window for more, caps a batch at maxEvents and never splits a delivery', async () => {
    const batches: string[][] = [];
    const queue = new BatchQueue<number>({
      handler: async (events) => {
        batches.push(events.map((e) => e.id));
      },
      maxEvents: 4,
      windowMs: 50,
      onFailure: () => {},
    });
    await queue.add(delivery('a'));
    await queue.idle();
    // Closer together than the window: load. The next ones wait for company, up to 4 events a batch.
    await queue.add(delivery('b'));
    await sleep(5);
    await queue.add(delivery('c', 'd'));
    await queue.add(delivery('e', 'f', 'g'));
    await queue.add(delivery('h', 'i', 'j', 'k', 'l'));
    await queue.idle();
    expect(batches).toEqual([['a'], ['b', 'c', 'd'], ['e', 'f', 'g'], ['h', 'i', 'j', 'k', 'l']]);
  });

  it('retries a failed batch a delivery at a time: the good ones are acked, the bad one nak-ed with backoff', async () => {
    const batches: string[][] = [];
    const failures: string[] = [];
    const queue = new BatchQueue<number>({
      handler: async (events) => {
        batches.push(events.map((e) => e.id));
        if (events.some((e) => e.id === 'bad')) throw new Error('cannot apply');
      },
      maxEvents: 100,
      windowMs: 5,
      onFailure: (_error, d) => failures.push(d.events[0]?.id ?? ''),
    });
    const deliveries = [delivery('a'), delivery('bad', 'b'), delivery('c')];
    for (const d of deliveries) await queue.add(d);
    await queue.idle();
    expect(batches).toEqual([['a', 'bad', 'b', 'c'], ['a'], ['bad', 'b'], ['c']]);
    expect(deliveries.map((d) => d.acked)).toEqual([true, false, true]);
    expect(deliveries[1]?.nakedAfterMs).toBeGreaterThan(0);
    expect(failures).toEqual(['bad']);
  });
});

describe('InProcessBus batches', () => {
  it('hands the events published together to a batch consumer as one batch, each id once', async () => {
    const bus = new InProcessBus();
    const batches: BusEvent<{ i: number }>[][] = [];
    await bus.consumeBatches<{ i: number }>('spend.v1.>', 'accounting', async (events) => {
      batches.push([...events]);
    });
    await Promise.all(Array.from({ length: 10 }, (_, i) => bus.publish('spend.v1.chat', `e${i}`, { i })));
    await bus.publish('spend.v1.chat', 'e3', { i: 3 });
    await eventually(() => batches.flat().length === 10, 2000);
    expect(batches).toHaveLength(1);
    expect(batches[0]?.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => `e${i}`));
    await bus.close();
  });

  it('retries a failed batch an event at a time, so one that keeps failing holds up only itself', async () => {
    const bus = new InProcessBus({ retryDelayMs: 1 });
    let failures = 3;
    const applied: string[] = [];
    await bus.consumeBatches('spend.v1.>', 'accounting', async (events) => {
      if (events.some((e) => e.id === 'bad') && failures > 0) {
        failures -= 1;
        throw new Error('store down');
      }
      applied.push(...events.map((e) => e.id));
    });
    await Promise.all(['a', 'bad', 'b'].map((id) => bus.publish('spend.v1.chat', id, {})));
    await eventually(() => applied.length === 3, 2000);
    expect(applied).toEqual(['a', 'bad', 'b']);
    await bus.close();
  });
});
