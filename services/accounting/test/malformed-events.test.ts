import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InProcessBus, NatsBus, openOutbox, type Bus } from '@gateway/bus';
import { loadConfig, exampleConfigPath } from '@gateway/config';
import { AccountingClient, encodeSpendEvent, SPEND_STREAM, SPEND_SUBJECTS, spendSubject, type SpendEvent } from '@gateway/contracts';
import { createLogger } from '@gateway/logging';
import { SqliteStore } from '@gateway/store';
import { metricsRegistry } from '@gateway/telemetry';
import { eventually } from '../../../test/helpers/wait.js';
import { DeadLetters, startAccounting } from '../src/index.js';
import { chatSpend, cleanupAfterEach, natsForFile } from './support.js';

// A malformed spend event is counted, logged, dead-lettered and acknowledged; the events behind
// it keep applying. On the in-process bus and on NATS JetStream.

const cleanup = cleanupAfterEach();
const nats = natsForFile();

async function rejected(subject: string): Promise<number> {
  const metric = await metricsRegistry().getSingleMetric('gateway_bus_events_rejected_total')?.get();
  return metric?.values.find((v) => v.labels.subject === subject)?.value ?? 0;
}

async function start(openBus: (dir: string) => Promise<Bus>) {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-malformed-'));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  const bus = await openBus(dir);
  cleanup(() => bus.close());
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'warn',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  });
  const store = new SqliteStore(join(dir, 'accounting'));
  const service = await startAccounting({
    config: await loadConfig(exampleConfigPath),
    bus,
    store,
    logger,
    env: {},
    listen: '127.0.0.1:0',
  });
  cleanup(() => service.close());
  const client = new AccountingClient(service.address);
  cleanup(() => client.close());
  return { bus, client, lines, deadLetters: await DeadLetters.open(store) };
}

async function malformedThenGood(openBus: (dir: string) => Promise<Bus>, prefix: string): Promise<void> {
  const { bus, client, lines, deadLetters } = await start(openBus);
  const { key } = await client.createKey({ name: 'm', models: ['*'], budgetNanoUsd: 10e9, rpm: 0 });
  const subject = spendSubject('chat');
  const before = await rejected(subject);
  const good = (id: string, cost: number): SpendEvent => chatSpend(key.id, id, cost);
  // Bytes that are no SpendEvent, then a well-encoded event whose fields cannot apply (no key).
  await bus.publish(subject, `${prefix}-bad-1`, new Uint8Array([0xff, 0xff, 0xff, 0xff]));
  await bus.publish(subject, `${prefix}-bad-2`, encodeSpendEvent({ ...good(`${prefix}-bad-2`, 5), key_id: '' }));
  await bus.publish(subject, `${prefix}-good-1`, encodeSpendEvent(good(`${prefix}-good-1`, 100)));
  await bus.publish(subject, `${prefix}-good-2`, encodeSpendEvent(good(`${prefix}-good-2`, 20)));
  await eventually(async () => (await client.getUsage(key.id)).spent_nano_usd === 120, 10_000);
  expect(await rejected(subject)).toBe(before + 2);
  const letters = await deadLetters.list();
  expect(letters.map((l) => l.event_id).sort()).toEqual([`${prefix}-bad-1`, `${prefix}-bad-2`]);
  expect(letters.every((l) => l.subject === subject && typeof l.data_base64 === 'string')).toBe(true);
  const warned = lines.filter((l) => l.msg === 'malformed spend event; dead-lettered');
  expect(warned).toHaveLength(2);
  expect(warned.every((l) => l.level === 'warn' && l.subject === subject)).toBe(true);
}

describe('malformed spend events', () => {
  it('are dead-lettered on the in-process bus, and the good ones behind them apply', async () => {
    await malformedThenGood(async (dir) => {
      const outboxStore = new SqliteStore(join(dir, 'outbox'));
      cleanup(() => outboxStore.close());
      return InProcessBus.open({ outbox: await openOutbox(outboxStore, { byDueTime: false }) });
    }, 'inproc');
  });

  it('are dead-lettered on NATS JetStream, and the good ones behind them apply', async () => {
    await malformedThenGood(async (dir) => {
      const outboxStore = new SqliteStore(join(dir, 'outbox'));
      cleanup(() => outboxStore.close());
      return NatsBus.connect({
        servers: nats().url,
        logger: createLogger({ level: 'silent' }),
        name: 'malformed-test',
        outbox: await openOutbox(outboxStore, { byDueTime: true }),
        streamName: SPEND_STREAM,
        streamSubjects: [SPEND_SUBJECTS],
      });
    }, 'nats');
  });
});
