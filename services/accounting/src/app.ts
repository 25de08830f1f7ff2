import { fieldsOf } from '@gateway/logging';
import type { Subscription } from '@gateway/bus';
import { decodeSpendEvent, encodeKeyChangedEvent, KEYS_CHANGED_SUBJECT, MalformedEventError, SPEND_SUBJECTS, type KeyChangedEvent, type SpendEvent } from '@gateway/contracts';
import { GrpcServer } from '@gateway/grpc';
import { protos, type AccountingServiceHandlers, type Key } from '@gateway/protos';
import type { ServiceDeps } from '@gateway/runtime';
import type { DocumentStore } from '@gateway/store';
import { GatewayError } from '@gateway/errors';
import { busEventsRejectedSeries, observeBus, spendSeries } from '@gateway/telemetry';
import { keyAllows, KeyRepository, type KeyRecord } from './domain/keys.js';
import { Reservations } from './domain/reservations.js';
import { Ledger } from './domain/ledger.js';
import { DeadLetters } from './domain/dead-letters.js';

export interface AccountingDeps extends ServiceDeps {
  store: DocumentStore;
  /**
   * Every lease in the store was held by a chat service of an earlier run of this process (the
   * one-process start on its own embedded store): they are given back at start instead of after
   * their 15-minute sweep. Holds of single calls and video jobs stay: their jobs go on.
   */
  leasesEndWithProcess?: boolean;
}

export interface AccountingApp {
  server: GrpcServer;
  keys: KeyRepository;
  ledger: Ledger;
  reservations: Reservations;
  /** Spend events that could not be decoded, kept aside. */
  deadLetters: DeadLetters;
  /** Stops consuming events (the server and store are closed by their owner). */
  stop(): Promise<void>;
}

/** The durable consumer name: every accounting replica shares it, so each event is handled once. */
export const SPEND_CONSUMER = 'accounting-spend';

export function keyMessage(key: KeyRecord): Key {
  return {
    id: key._id,
    name: key.name,
    models: key.models,
    budget_nano_usd: key.budget_nano_usd,
    rpm: key.rpm,
    created_at_ms: key.created_at.getTime(),
    revoked_at_ms: key.revoked_at ? key.revoked_at.getTime() : 0,
    hint: key.hint,
    tpm: key.tpm ?? 0,
  };
}

/** Wires the accounting domain to its gRPC handlers and the spend consumer. */
export async function buildAccountingApp(deps: AccountingDeps): Promise<AccountingApp> {
  const { store, bus, logger, config } = deps;
  const keys = await KeyRepository.open(store, config);
  await keys.backfillAvailable();
  // Balances live on the key documents in the store, in both modes (docs/architecture.md, "Budget authority").
  const reservations = await Reservations.open(store, keys);
  const ledger = await Ledger.open(store, reservations);
  if (deps.leasesEndWithProcess) {
    const released = await reservations.releaseLeases();
    if (released > 0) logger.info({ released }, 'gave back the budget leases of the previous run');
  }
  const figures = (key: KeyRecord) => reservations.figures(key);
  const server = new GrpcServer({ logger, service: 'accounting', shutdownGraceMs: config.server.shutdownGraceMs, checks: { store: () => store.ping(), bus: () => bus.ping() } });

  const keyChanged = (key_id: string, change: KeyChangedEvent['change']) =>
    bus.broadcast(KEYS_CHANGED_SUBJECT, encodeKeyChangedEvent({ key_id, change })).catch((error: unknown) => {
      logger.warn({ err: error, keyId: key_id }, 'could not announce a key change; edges fall back to their cache expiry');
    });

  interface ReserveRequest { key_id: string; group: string; amount_nano_usd: number; reservation_id: string }
  const reserve = async (request: ReserveRequest): Promise<number> => {
    const key = await keys.get(request.key_id);
    if (key.revoked_at !== null) throw new GatewayError('invalid_api_key');
    if (!keyAllows(key, request.group)) throw new GatewayError('model_not_allowed');
    await reservations.countRequest(key);
    return reservations.reserve(key, request.group, request.amount_nano_usd, request.reservation_id);
  };

  const handlers: AccountingServiceHandlers = {
    AuthenticateKey: server.unary('AuthenticateKey', async (request: { key_hash: string }) => {
      const key = await keys.authenticate(request.key_hash);
      return { key: keyMessage(key), spent_nano_usd: figures(key).spent };
    }),
    CreateKey: server.unary('CreateKey', async (request: { name: string; models: string[]; budget_nano_usd: number; rpm: number; tpm: number }, call) => {
      const { key, secret } = await keys.create({
        name: request.name, models: request.models, budgetNanoUsd: request.budget_nano_usd, rpm: request.rpm, tpm: request.tpm,
      });
      logger.info({ ...fieldsOf(call.scope), keyId: key._id, name: key.name }, 'key created');
      await keyChanged(key._id, 'created');
      return { key: keyMessage(key), secret };
    }),
    ListKeys: server.unary('ListKeys', async (request: { page_size: number; page_token: string }) => {
      const page = await keys.list(request.page_size, request.page_token);
      return { keys: page.keys.map(keyMessage), next_page_token: page.nextPageToken };
    }),
    GetKey: server.unary('GetKey', async (request: { key_id: string }) => {
      const key = await keys.get(request.key_id);
      return { key: keyMessage(key), spent_nano_usd: figures(key).spent };
    }),
    RevokeKey: server.unary('RevokeKey', async (request: { key_id: string }, call) => {
      const { key, changed } = await keys.revoke(request.key_id);
      if (changed) {
        logger.info({ ...fieldsOf(call.scope), keyId: key._id }, 'key revoked');
        await keyChanged(key._id, 'revoked');
      }
      return { key: keyMessage(key) };
    }),
    GetUsage: server.unary('GetUsage', async (request: { key_id: string }) => {
      const key = await keys.get(request.key_id);
      const groups = await ledger.usageOf(key._id);
      const { spent, reserved } = figures(key);
      return {
        key: keyMessage(key),
        spent_nano_usd: spent,
        reserved_nano_usd: reserved,
        groups: groups.map((g) => ({ group: g.group, spent_nano_usd: g.spent_nano_usd, requests: g.requests })),
        period_start_ms: key.created_at.getTime(),
      };
    }),
    ReserveBudget: server.unary('ReserveBudget', async (request: ReserveRequest) => ({ available_nano_usd: await reserve(request) })),
    ReserveBudgets: server.unary('ReserveBudgets', async (request: { reservations: ReserveRequest[] }) => {
      const results = [];
      for (const item of request.reservations) {
        try {
          results.push({ available_nano_usd: await reserve(item), error_code: '', error_message: '', retry_after_seconds: 0 });
        } catch (error) {
          if (!(error instanceof GatewayError)) throw error;
          results.push({ available_nano_usd: 0, error_code: error.code, error_message: error.message, retry_after_seconds: error.retryAfterSeconds ?? 0 });
        }
      }
      return { results };
    }),
    ReleaseReservation: server.unary('ReleaseReservation', async (request: { reservation_id: string; amount_nano_usd: number; key_id: string }) => {
      await reservations.release(request.reservation_id, request.amount_nano_usd > 0 ? request.amount_nano_usd : undefined, request.key_id);
      return {};
    }),
    LeaseBudget: server.unary('LeaseBudget', async (request: {
      key_id: string; group: string; lease_id: string; min_nano_usd: number; want_nano_usd: number; return_lease_id: string; return_nano_usd: number;
    }) => {
      const key = await keys.get(request.key_id);
      if (key.revoked_at !== null) throw new GatewayError('invalid_api_key');
      if (!keyAllows(key, request.group)) throw new GatewayError('model_not_allowed');
      const previous = request.return_lease_id ? { leaseId: request.return_lease_id, unused: request.return_nano_usd } : undefined;
      const { granted, perCall } = await reservations.lease(key, request.group, request.lease_id, request.min_nano_usd, request.want_nano_usd, previous);
      return { granted_nano_usd: granted, per_call: perCall };
    }),
  };
  server.addService('gateway.accounting.v1.AccountingService', protos().gateway.accounting.v1.AccountingService.service, handlers);

  const deadLetters = await DeadLetters.open(store);
  const consumer: Subscription = await bus.consume<unknown>(SPEND_SUBJECTS, SPEND_CONSUMER, async (message) => {
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
  const unobserveBus = observeBus(bus);

  // Holds a crashed caller left behind go back to the key after the configured age.
  const sweeper = setInterval(() => {
    reservations.sweep(config.server.reservationMaxAgeMs).then(
      (released) => { if (released > 0) logger.warn({ released }, 'released reservations left by calls that never ended'); },
      (error: unknown) => logger.error({ err: error }, 'reservation sweep failed'),
    );
  }, 60_000);
  sweeper.unref();

  return {
    server, keys, ledger, reservations, deadLetters,
    stop: async () => {
      clearInterval(sweeper);
      unobserveBus();
      await consumer.close();
    },
  };
}
