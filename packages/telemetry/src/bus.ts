import { Gauge } from 'prom-client';
import { once } from './registry.js';

// The bus gauges are read at scrape time. Asking NATS about a consumer is a network round trip,
// so answers are cached briefly and a scrape waits for a fresh one only a short while; past
// that it reports the last known values and the answer lands in the cache for the next scrape.

/** What a bus reports about itself (packages/bus implements it). */
export interface BusStats {
  /** Events kept locally because the broker has not acknowledged them yet. */
  outboxDepth: number;
  /** Events not yet delivered, by durable consumer this process runs. */
  consumerLag: Readonly<Record<string, number>>;
}

export interface BusStatsSource {
  stats(): Promise<BusStats>;
}

/** Answers younger than this are served without asking again. */
const FRESH_MS = 1000;
/** The longest a scrape waits for a fresh answer. */
const SCRAPE_WAIT_MS = 250;

class CachedStats {
  #last: BusStats = { outboxDepth: 0, consumerLag: {} };
  #at = 0;
  #pending: Promise<void> | undefined;

  constructor(private readonly source: BusStatsSource) {}

  async read(): Promise<BusStats> {
    if (Date.now() - this.#at < FRESH_MS) return this.#last;
    this.#pending ??= this.source
      .stats()
      .then(
        (stats) => {
          this.#last = stats;
          this.#at = Date.now();
        },
        // An unreachable broker leaves the last known values in place.
        () => undefined,
      )
      .finally(() => {
        this.#pending = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#pending,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SCRAPE_WAIT_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return this.#last;
  }
}

/** Each observed bus with how many services observe it. */
const observed = new Map<BusStatsSource, { cached: CachedStats; observers: number }>();

async function allStats(): Promise<BusStats[]> {
  return Promise.all([...observed.values()].map(({ cached }) => cached.read()));
}

const busGauges = once((registry) => ({
  outbox: new Gauge({
    name: 'gateway_bus_outbox_depth',
    help: 'Spend events waiting in the durable local outbox for NATS to acknowledge them (always 0 with the in-process bus).',
    registers: [registry],
    async collect() {
      const stats = await allStats();
      this.set(stats.reduce((sum, s) => sum + s.outboxDepth, 0));
    },
  }),
  lag: new Gauge({
    name: 'gateway_bus_consumer_lag',
    help: 'Events not yet delivered to a durable consumer this process runs (JetStream num_pending; with the in-process bus, the events queued for it).',
    labelNames: ['consumer'] as const,
    registers: [registry],
    async collect() {
      const stats = await allStats();
      this.reset();
      const totals = new Map<string, number>();
      for (const s of stats) {
        for (const [consumer, lag] of Object.entries(s.consumerLag)) totals.set(consumer, (totals.get(consumer) ?? 0) + lag);
      }
      for (const [consumer, lag] of totals) this.labels(consumer).set(lag);
    },
  }),
}));

/**
 * Reports a bus in the process's gauges until the returned function is called. A bus shared by
 * several services (the all-in-one start) is reported once, however many observe it.
 */
export function observeBus(source: BusStatsSource): () => void {
  busGauges();
  const entry = observed.get(source) ?? { cached: new CachedStats(source), observers: 0 };
  entry.observers += 1;
  observed.set(source, entry);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    entry.observers -= 1;
    if (entry.observers === 0) observed.delete(source);
  };
}
