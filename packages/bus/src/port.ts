// The bus port. Two kinds of traffic cross it:
// - events that must not be lost (spend): published with an idempotency id, consumed by a
//   durable named consumer that gets every event until its handler succeeds;
// - broadcasts (key changes): every live subscriber gets them, nobody replays them.
// Adapters: in-process (embedded mode) and NATS JetStream (multi-process mode).

export interface BusEvent<T> {
  subject: string;
  /** Idempotency id: the same id published twice within the duplicate window is one event. */
  id: string;
  data: T;
}

export type EventHandler<T> = (event: BusEvent<T>) => Promise<void>;
/** Events delivered together, to be handled as one: they are acknowledged together once it resolves. */
export type BatchHandler<T> = (events: readonly BusEvent<T>[]) => Promise<void>;

export interface BatchOptions {
  /** At most this many events per batch (default 256); a NATS message carrying more is a batch on its own. */
  maxEvents?: number;
  /**
   * Under load, how long a batch waits for more events after its first (default 5 ms). Over
   * NATS an event after a quiet spell (none in the last window) is handed over at once: only
   * load waits. The in-process bus waits the window for a lone event too: its consumer runs on
   * the publisher's thread, and handled at once it would run as the caller's next request arrives.
   */
  windowMs?: number;
}
export type BroadcastHandler<T> = (data: T, subject: string) => void;

export interface Subscription {
  close(): Promise<void>;
}

/** What the bus reports for the metrics (gateway_bus_outbox_depth, gateway_bus_consumer_lag). */
export interface BusStats {
  /** Events kept locally until the broker acknowledges them (always 0 in process). */
  outboxDepth: number;
  /** Events not yet delivered, by durable consumer this process runs. */
  consumerLag: Readonly<Record<string, number>>;
}

export interface Bus {
  readonly kind: 'in-process' | 'nats';
  /**
   * Resolves once the bus has accepted the event; a repeated id is accepted and dropped.
   * `wire` gives the event's bytes where it leaves the process (NATS); a bus that keeps events
   * in process hands `data` over as it is, and its consumers get the object itself.
   */
  publish<T>(subject: string, id: string, data: T, wire?: (data: T) => Uint8Array): Promise<void>;
  /**
   * A durable consumer: events on subjects matching `filter` (NATS wildcards `*` and `>`) are
   * handed to `handler` one at a time and redelivered until it resolves, including those
   * published before the consumer started.
   */
  consume<T>(filter: string, durableName: string, handler: EventHandler<T>): Promise<Subscription>;
  /**
   * The same durable consumer, handing over events that arrive together as one batch (see
   * BatchOptions). A batch whose handler fails is handed over again, a delivery at a time (a NATS
   * message; an event in process), so an event that keeps failing holds up only itself. Events
   * are acknowledged only after the handler resolved: a handler that commits before it resolves
   * never loses an event, and must recognise one it applied already (a crash between its commit
   * and the acknowledgement delivers it again).
   */
  consumeBatches<T>(filter: string, durableName: string, handler: BatchHandler<T>, options?: BatchOptions): Promise<Subscription>;
  /**
   * Resolves once this process's consumer `durableName` has handled every event published to it
   * before the call (a batch window waiting for more is cut short), or after `timeoutMs` (1 s by
   * default) should its handler keep failing. Readers that must see a caller's spend right
   * after its call wait on it. Over NATS it resolves at once: events are applied as they arrive,
   * by whichever replica consumes them.
   */
  caughtUp(durableName: string, timeoutMs?: number): Promise<void>;
  /** Fire-and-forget to every live subscriber. */
  broadcast<T>(subject: string, data: T): Promise<void>;
  subscribe<T>(filter: string, handler: BroadcastHandler<T>): Promise<Subscription>;
  /** Resolves while the bus is connected. */
  ping(): Promise<void>;
  /** Outbox depth and consumer lag; may ask the broker, so callers cache it. */
  stats(): Promise<BusStats>;
  close(): Promise<void>;
}

/** NATS subject matching: tokens split on ".", `*` matches one token, `>` the rest (one or more). */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i += 1) {
    const token = f[i];
    if (token === '>') return s.length > i;
    if (i >= s.length) return false;
    if (token !== '*' && token !== s[i]) return false;
  }
  return f.length === s.length;
}
