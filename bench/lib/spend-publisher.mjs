// A chat service's side of the spend stream, for bench/events.mjs: publishes the spend events in
// the JSON file argv[2] on NATS (NATS_URL) through the gateway's NatsBus, as chat calls do (each
// caller awaits its event's publish; events published while one is under way travel together),
// at EVENTS_RATE events per second from EVENTS_CALLERS callers. Prints one JSON line when done.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NatsBus, openOutbox } from '../../packages/bus/dist/index.js';
import { encodeSpendEvent, SPEND_STREAM, SPEND_SUBJECTS, spendSubject } from '../../packages/contracts/dist/index.js';
import { silentLogger } from '../../packages/logging/dist/index.js';
import { SqliteStore } from '../../packages/store/dist/index.js';

/** @type {import('../../packages/contracts/dist/index.js').SpendEvent[]} */
const events = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const rate = Number(process.env.EVENTS_RATE ?? 1000);
const callers = Number(process.env.EVENTS_CALLERS ?? 32);
const dir = mkdtempSync(join(tmpdir(), 'gateway-spend-publisher-'));
const outboxStore = new SqliteStore(dir);
const bus = await NatsBus.connect({
  servers: process.env.NATS_URL ?? '',
  logger: silentLogger(),
  name: 'bench-publisher',
  outbox: await openOutbox(outboxStore, { byDueTime: true }),
  streamName: SPEND_STREAM,
  streamSubjects: [SPEND_SUBJECTS],
});
const startedAt = performance.now();
let next = 0;
async function caller() {
  for (;;) {
    const index = next;
    next += 1;
    if (index >= events.length) return;
    // Event i is due at i / rate seconds: a steady arrival rate, whatever the publish latency.
    const wait = startedAt + (index * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const event = /** @type {import('../../packages/contracts/dist/index.js').SpendEvent} */ (events[index]);
    await bus.publish(spendSubject(event.kind), event.id, encodeSpendEvent(event));
  }
}
await Promise.all(Array.from({ length: callers }, caller));
const seconds = (performance.now() - startedAt) / 1000;
await bus.close();
await outboxStore.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ published: events.length, seconds }));
