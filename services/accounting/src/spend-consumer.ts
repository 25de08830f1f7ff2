import type { Bus, BusEvent, Subscription } from '@gateway/bus';
import { decodeSpendEvent, MalformedEventError, SPEND_SUBJECTS, type SpendEvent } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import type { DocumentStore } from '@gateway/store';
import { busEventsRejectedSeries, spendSeries } from '@gateway/telemetry';
import type { DeadLetters } from './domain/dead-letters.js';
import type { Ledger } from './domain/ledger.js';

/** The durable consumer name: every accounting replica shares it, so each event is handled once. */
export const SPEND_CONSUMER = 'accounting-spend';

/** Events applied in one store transaction at most. */
export const SPEND_BATCH_EVENTS = 256;
/**
 * Under load, how long a batch waits for more events after its first (over NATS an event alone
 * waits for nothing). In one process a reader of spend (usage, keys, spend logs, a refused
 * budget) first has this process's consumer apply what waits (`Bus.caughtUp`), so a caller
 * still sees its call's spend right after the response. 50 ms rather than 20: at 300 calls per
 * second accounting's CPU per call fell 15%, one call at a time 25% (bench/history/2026-11-28-results-diary.md, "Run of
 * 2026-11-28, later: log lines in batches, spend windows of 50 ms").
 */
export const SPEND_BATCH_WINDOW_MS = 50;
/**
 * In one process, where a lone event waits it too (the in-process bus: off the turn in which the
 * caller's next request arrives). Each batch costs a transaction and a few writes however few
 * events it carries, so at a moderate load a longer window is cheaper per call: at 300 calls
 * per second, 50 ms instead of 10 took 12% off the process's CPU per call, and one call at a
 * time 18% (bench/history/2026-11-28-results-diary.md, "What a wake-up costs"). A waiting reader cuts it short.
 */
export const SPEND_BATCH_WINDOW_IN_PROCESS_MS = 50;

export interface SpendConsumerDeps {
  bus: Bus;
  store: DocumentStore;
  ledger: Ledger;
  deadLetters: DeadLetters;
  logger: Logger;
}

/**
 * Applies spend events from the bus to the ledger, each once, malformed ones dead-lettered.
 * Events that arrive together are applied as one batch in one store transaction (a few writes
 * for the whole batch: docs/architecture.md, "Budget authority"), acknowledged once it
 * committed. A store without transactions (a standalone MongoDB) applies them one at a time.
 */
export async function consumeSpendEvents(deps: SpendConsumerDeps): Promise<Subscription> {
  if (!deps.store.transactional) {
    deps.logger.warn('the store has no transactions (a standalone MongoDB): spend events are applied one at a time');
    return consumeOneByOne(deps);
  }
  const { bus, store, ledger, logger } = deps;
  return bus.consumeBatches<unknown>(
    SPEND_SUBJECTS,
    SPEND_CONSUMER,
    async (messages) => {
      const spends: SpendEvent[] = [];
      for (const message of messages) {
        const spend = await decodeOrDeadLetter(message, deps);
        if (spend) spends.push(spend);
      }
      if (spends.length === 0) return;
      // The entries (each event's dedup marker) and every balance, hold and counter they move
      // commit together: a crash before the commit leaves the batch unapplied (the bus delivers
      // it again), a crash after it leaves entries that the redelivery recognises.
      const outcome = await store.transaction(() => ledger.applyBatch(spends));
      for (const event of outcome.applied) spendSeries(event.group, event.kind).inc(event.cost_nano_usd);
      for (const event of outcome.unknownKey) {
        logger.warn({ eventId: event.id, keyId: event.key_id }, 'spend event for an unknown key; skipped');
      }
      logger.debug({ events: spends.length, applied: outcome.applied.length, repeated: outcome.repeated.length }, 'spend events applied');
    },
    { maxEvents: SPEND_BATCH_EVENTS, windowMs: bus.kind === 'in-process' ? SPEND_BATCH_WINDOW_IN_PROCESS_MS : SPEND_BATCH_WINDOW_MS },
  );
}

/** The event's spend, or undefined when it can never apply (dead-lettered, counted, and acknowledged with the rest). */
async function decodeOrDeadLetter(message: BusEvent<unknown>, { deadLetters, logger }: SpendConsumerDeps): Promise<SpendEvent | undefined> {
  try {
    return decodeSpendEvent(message.data, message.subject);
  } catch (error) {
    if (!(error instanceof MalformedEventError)) throw error;
    // It can never apply: redelivering it would block the events behind it. Kept aside for an
    // operator, counted, and acknowledged.
    busEventsRejectedSeries(message.subject).inc();
    logger.warn({ err: error, subject: message.subject, eventId: message.id }, 'malformed spend event; dead-lettered');
    await deadLetters.keep(message, error.message).catch((keepError: unknown) => {
      logger.error({ err: keepError, eventId: message.id }, 'could not keep a malformed spend event; dropped');
    });
    return undefined;
  }
}

/** One event, one store call at a time: for stores without transactions, where a batch could land in part. */
async function consumeOneByOne(deps: SpendConsumerDeps): Promise<Subscription> {
  const { bus, store, ledger, logger } = deps;
  return bus.consume<unknown>(SPEND_SUBJECTS, SPEND_CONSUMER, async (message) => {
    const spend = await decodeOrDeadLetter(message, deps);
    if (!spend) return;
    // The ledger insert is the gate (its id is unique); the balances move after it.
    let applied: boolean;
    try {
      applied = await store.atomically(() => ledger.apply(spend));
    } catch (error) {
      // An event for a key that does not exist can never apply; redelivering it would block the rest.
      if (!(error instanceof GatewayError && error.code === 'key_not_found')) throw error;
      logger.warn({ eventId: message.id, keyId: spend.key_id }, 'spend event for an unknown key; skipped');
      return;
    }
    // Only a newly applied event counts: a redelivered one is already in the ledger and the series.
    if (applied) spendSeries(spend.group, spend.kind).inc(spend.cost_nano_usd);
    logger.debug({ eventId: message.id, keyId: spend.key_id, applied }, 'spend event');
  });
}
