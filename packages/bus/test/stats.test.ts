import { silentLogger } from '@gateway/logging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsServer } from '../../../test/helpers/nats-server.js';
import { InProcessBus, type NatsBus } from '../src/index.js';
import { openTestBus } from './nats-bus.js';
import { eventually } from '../../../test/helpers/wait.js';

// What the buses report for the metrics: outbox depth and the lag of the durable consumers
// this process runs. NATS cases against a real nats-server with JetStream.

const until = (check: () => boolean | Promise<boolean>, ms = 10_000) => eventually(check, ms);

describe('InProcessBus stats', () => {
  it('has no outbox and reports the events waiting for each consumer', async () => {
    const bus = new InProcessBus({ logger: silentLogger() });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await bus.consume('spend.v1.>', 'slow', async () => gate);
    for (let i = 0; i < 4; i += 1) await bus.publish('spend.v1.chat', `e${i}`, {});
    await until(async () => (await bus.stats()).consumerLag.slow === 3);
    expect((await bus.stats()).outboxDepth).toBe(0);
    release();
    await until(async () => (await bus.stats()).consumerLag.slow === 0);
    await bus.close();
  });
});

describe('NatsBus stats', () => {
  let nats: NatsServer;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    nats = await NatsServer.start();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await nats.destroy();
  });

  async function bus(name: string): Promise<NatsBus> {
    const opened = await openTestBus(nats.url, name, { streamName: 'STATS', publishTimeoutMs: 500 });
    cleanups.push(opened.cleanup);
    return opened.bus;
  }

  it("reports JetStream's undelivered count for a consumer that falls behind", async () => {
    const publisher = await bus('stats-publisher');
    const consumerBus = await bus('stats-consumer');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await consumerBus.consume('spend.v1.>', 'stats-slow', async () => gate);
    expect(await publisher.stats()).toEqual({ outboxDepth: 0, consumerLag: {} });
    // The consumer pulls up to 256 at a time; what it has not pulled is pending.
    for (let i = 0; i < 300; i += 1) await publisher.publish('spend.v1.chat', `stats-${i}`, { i });
    await until(async () => ((await consumerBus.stats()).consumerLag['stats-slow'] ?? 0) >= 300 - 256);
    release();
    await until(async () => (await consumerBus.stats()).consumerLag['stats-slow'] === 0, 20_000);
  });

  it('reports the outbox while NATS is away', async () => {
    const producer = await bus('stats-producer');
    await nats.stop();
    try {
      await producer.publish('spend.v1.chat', 'stats-outage-1', {});
      expect((await producer.stats()).outboxDepth).toBe(1);
    } finally {
      await nats.restart();
    }
    await until(async () => (await producer.stats()).outboxDepth === 0, 20_000);
  });
});
