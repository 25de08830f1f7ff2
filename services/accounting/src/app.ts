import type { Subscription } from '@gateway/bus';
import { GrpcServer } from '@gateway/grpc';
import { protos } from '@gateway/protos';
import type { ServiceDeps } from '@gateway/runtime';
import type { DocumentStore } from '@gateway/store';
import { observeBus } from '@gateway/telemetry';
import { KeyRepository } from './domain/keys.js';
import { Reservations } from './domain/reservations.js';
import { Ledger } from './domain/ledger.js';
import { DeadLetters } from './domain/dead-letters.js';
import { AuditLog } from './domain/audit.js';
import { TeamRepository } from './domain/teams.js';
import { StoredResponses } from './domain/stored-responses.js';
import { accountingHandlers } from './handlers.js';
import { consumeSpendEvents } from './spend-consumer.js';

export interface AccountingDeps extends ServiceDeps {
  store: DocumentStore;
  /**
   * Every lease in the store was held by a chat service of an earlier run of this process (the
   * one-process start on its own embedded store): they are given back at start instead of after
   * their 15-minute sweep. Holds of single calls and video jobs stay: their jobs go on.
   */
  leasesEndWithProcess?: boolean;
  /** Unix ms now: budget periods, expiry and grace are judged by it (tests move it). */
  clock?: () => number;
}

export interface AccountingApp {
  server: GrpcServer;
  keys: KeyRepository;
  teams: TeamRepository;
  ledger: Ledger;
  reservations: Reservations;
  storedResponses: StoredResponses;
  /** Spend events that could not be decoded, kept aside. */
  deadLetters: DeadLetters;
  /** Stops consuming events (the server and store are closed by their owner). */
  stop(): Promise<void>;
}

/** Wires the accounting domain to its gRPC handlers and the spend consumer. */
export async function buildAccountingApp(deps: AccountingDeps): Promise<AccountingApp> {
  const { store, bus, logger, config } = deps;
  const clock = deps.clock ?? Date.now;
  const keys = await KeyRepository.open(store, config, clock);
  await keys.backfill();
  const teams = await TeamRepository.open(store, config, clock);
  // Balances live on the key and team documents in the store, in both modes (docs/architecture.md, "Budget authority").
  const reservations = await Reservations.open(store, keys, teams, clock);
  const ledger = await Ledger.open(store, keys, reservations, clock);
  const audit = await AuditLog.open(store, clock);
  const storedResponses = await StoredResponses.open(store, config.responses.retentionSeconds, clock);
  // An earlier release's ledger gets its spend-log order and daily figures in the background.
  let stopping = false;
  const backfilled = ledger
    .backfill(store, () => stopping)
    .then(
      (entries) => {
        if (entries > 0) logger.info({ entries }, 'ledger entries of an earlier release indexed for spend logs and daily spend');
      },
      (error: unknown) => logger.error({ err: error }, 'indexing earlier ledger entries failed; it is tried again at the next start'),
    );
  if (deps.leasesEndWithProcess) {
    const released = await reservations.releaseLeases();
    if (released > 0) logger.info({ released }, 'gave back the budget leases of the previous run');
  }
  const server = new GrpcServer({
    logger,
    service: 'accounting',
    shutdownGraceMs: config.server.shutdownGraceMs,
    // Not the bus: spend waits in the publishers' outboxes while it is away, and keys, budgets and
    // holds keep being served, so a NATS outage takes no pod out of rotation.
    checks: { store: () => store.ping() },
  });

  server.addService(
    'gateway.accounting.v1.AccountingService',
    protos().gateway.accounting.v1.AccountingService.service,
    accountingHandlers({ server, store, keys, teams, reservations, ledger, audit, storedResponses, bus, logger, clock }),
  );

  const deadLetters = await DeadLetters.open(store);
  const consumer: Subscription = await consumeSpendEvents({ bus, store, ledger, deadLetters, logger });
  const unobserveBus = observeBus(bus);

  // Holds a crashed caller left behind go back to the key after the configured age.
  const sweeper = setInterval(() => {
    reservations.sweep(config.server.reservationMaxAgeMs).then(
      (released) => {
        if (released > 0) logger.warn({ released }, 'released reservations left by calls that never ended');
      },
      (error: unknown) => logger.error({ err: error }, 'reservation sweep failed'),
    );
  }, 60_000);
  sweeper.unref();

  return {
    server,
    keys,
    teams,
    ledger,
    reservations,
    storedResponses,
    deadLetters,
    stop: async () => {
      stopping = true;
      await backfilled;
      clearInterval(sweeper);
      unobserveBus();
      await consumer.close();
    },
  };
}
