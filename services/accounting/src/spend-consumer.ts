import type { Bus, Subscription } from '@gateway/bus';
import { decodeSpendEvent, MalformedEventError, SPEND_SUBJECTS, type SpendEvent } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import type { DocumentStore } from '@gateway/store';
import { busEventsRejectedSeries, spendSeries } from '@gateway/telemetry';
import type { DeadLetters } from './domain/dead-letters.js';
import type { Ledger } from './domain/ledger.js';

/** The durable consumer name: every accounting replica shares it, so each event is handled once. */
export const SPEND_CONSUMER = 'accounting-spend';

export interface SpendConsumerDeps {
  bus: Bus;
  store: DocumentStore;
  ledger: Ledger;
  deadLetters: DeadLetters;
  logger: Logger;
}

/** Applies spend events from the bus to the ledger: each once, malformed ones dead-lettered. */
export async function consumeSpendEvents({ bus, store, ledger, deadLetters, logger }: SpendConsumerDeps): Promise<Subscription> {
  return bus.consume<unknown>(SPEND_SUBJECTS, SPEND_CONSUMER, async (message) => {
    let spend: SpendEvent;
    try {
      spend = decodeSpendEvent(message.data, message.subject);
    } catch (error) {
      if (!(error instanceof MalformedEventError)) throw error;
      // It can never apply: redelivering it would block the events behind it. Kept aside for
      // an operator, counted, and acknowledged.
      busEventsRejectedSeries(message.subject).inc();
      logger.warn({ err: error, subject: message.subject, eventId: message.id }, 'malformed spend event; dead-lettered');
      await deadLetters.keep(message, error.message).catch((keepError: unknown) => {
        logger.error({ err: keepError, eventId: message.id }, 'could not keep a malformed spend event; dropped');
      });
      return;
    }
    const event = { ...message, data: spend };
    // The ledger entry and the balances it moves are written as one transaction where the store
    // has them (SQLite), so a crash never leaves an entry whose spend the key does not show.
    let applied: boolean;
    try {
      applied = await store.atomically(() => ledger.apply(event.data));
    } catch (error) {
      // An event for a key that does not exist can never apply; redelivering it would block the rest.
      if (!(error instanceof GatewayError && error.code === 'key_not_found')) throw error;
      logger.warn({ eventId: event.id, keyId: event.data.key_id }, 'spend event for an unknown key; skipped');
      return;
    }
    // Only a newly applied event counts: a redelivered one is already in the ledger and the series.
    if (applied) spendSeries(event.data.group, event.data.kind).inc(event.data.cost_nano_usd);
    logger.debug({ eventId: event.id, keyId: event.data.key_id, applied }, 'spend event');
  });
}
