import type { Logger } from '@gateway/logging';
import { isDuplicateKey, type Collection } from '@gateway/store';
import { eventCodecs } from '@gateway/protos';
import {
  AckPolicy,
  connect,
  DeliverPolicy,
  Events,
  headers,
  JSONCodec,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type MsgHdrs,
  type NatsConnection,
} from 'nats';
import { BatchQueue, DEFAULT_BATCH_EVENTS, DEFAULT_BATCH_WINDOW_MS } from './batches.js';
import { fromStored, toStored, type OutboxEntry } from './outbox.js';
import type { BatchHandler, BatchOptions, BroadcastHandler, Bus, BusEvent, BusStats, EventHandler, Subscription } from './port.js';

// The bus over NATS: durable events on JetStream (stream SPEND, subjects spend.v1.>, the event's
// idempotency id as the message id, so a republished event is dropped within the duplicate
// window), broadcasts on core NATS. A publish NATS does not acknowledge goes to a durable local
// outbox and is republished with backoff, so an outage loses nothing.

export interface NatsBusOptions {
  servers: string;
  logger: Logger;
  /** Connection name shown by the server, e.g. the service. */
  name: string;
  /** Durable store for events NATS did not acknowledge. */
  outbox: Collection<OutboxEntry>;
  publishTimeoutMs?: number;
  /**
   * How long a publish waits for JetStream's acknowledgement before its events go to the outbox
   * instead (default 500 ms). A server that is stopped but not gone (its connection open, nothing
   * answered) would otherwise hold every call for the whole publish timeout; past this wait the
   * bus writes to the outbox alone until an outbox flush is acknowledged again.
   */
  ackWaitMs?: number;
  /** The durable stream and its subjects: the caller's contract, not the adapter's (no defaults). */
  streamName: string;
  streamSubjects: readonly string[];
  /** How long the start keeps trying an unreachable server before it gives up (default 60 s). */
  connectTimeoutMs?: number;
}

/** The start gave up on a NATS server it could not reach. */
export class NatsUnreachableError extends Error {
  override readonly name = 'NatsUnreachableError';
  constructor(
    readonly servers: string,
    waitedMs: number,
    cause: unknown,
  ) {
    super(`cannot reach NATS at ${servers} after ${Math.round(waitedMs / 1000)} s`, { cause });
  }
}

const CONNECT_RETRY_MS = 1000;

const DUPLICATE_WINDOW_MS = 5 * 60_000;
/** A message carrying several JSON events: {"$events": [{id, data}, ...]}. No event has this key. */
const BATCH_KEY = '$events';
/**
 * Encoded (binary) events travel as their bytes, marked by this header: `event` for one event,
 * `batch` for several in a gateway.events.v1.EventBatch. A message without it is JSON.
 */
const ENCODING_HEADER = 'Gateway-Encoding';
const MAX_EVENTS_PER_MESSAGE = 500;

interface QueuedEvent {
  subject: string;
  id: string;
  data: unknown;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function batchOf(payload: unknown): { id: string; data: unknown }[] | undefined {
  if (typeof payload !== 'object' || payload === null || !(BATCH_KEY in payload)) return undefined;
  const events = (payload as Record<string, unknown>)[BATCH_KEY];
  return Array.isArray(events) ? (events as { id: string; data: unknown }[]) : undefined;
}
const MAX_BACKOFF_MS = 30_000;
const codec = JSONCodec<unknown>();

/** A message's payload and headers for some events of one subject (bytes raw, the rest as JSON). */
function encodeMessage(events: readonly { id: string; data: unknown }[]): { payload: Uint8Array; headers?: MsgHdrs } {
  const only = events.length === 1 ? events[0] : undefined;
  if (events.every((e) => e.data instanceof Uint8Array)) {
    const marked = headers();
    marked.set(ENCODING_HEADER, only ? 'event' : 'batch');
    const payload = only
      ? (only.data as Uint8Array)
      : eventCodecs().EventBatch.encode({ events: events.map((e) => ({ id: e.id, data: e.data as Uint8Array })) });
    return { payload, headers: marked };
  }
  return { payload: codec.encode(only ? only.data : { [BATCH_KEY]: events.map((e) => ({ id: e.id, data: e.data })) }) };
}

/**
 * The events a message carries, with their ids. What cannot be read (bytes that are no
 * EventBatch, text that is no JSON) is handed on as one event of raw bytes: the consumer's
 * contract decides it is malformed and dead-letters it, rather than the bus redelivering it for
 * ever and blocking the events behind it.
 */
function decodeMessage(data: Uint8Array, encoding: string | undefined, id: string): { id: string; data: unknown }[] {
  if (encoding === 'event') return [{ id, data }];
  if (encoding === 'batch') {
    try {
      return eventCodecs()
        .EventBatch.decode(data)
        .events.map((e) => ({ id: e.id, data: new Uint8Array(e.data) }));
    } catch {
      return [{ id, data }];
    }
  }
  let payload: unknown;
  try {
    payload = codec.decode(data);
  } catch {
    return [{ id, data }];
  }
  return batchOf(payload) ?? [{ id, data: payload }];
}

interface ConsumerState {
  durableName: string;
  closed: boolean;
  messages: ConsumerMessages | undefined;
  /** Resolves once the events read so far are handled (a batch consumer's queue). */
  idle?: () => Promise<void>;
}

export class NatsBus implements Bus {
  readonly kind = 'nats';
  readonly #nc: NatsConnection;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #options: Required<Omit<NatsBusOptions, 'outbox' | 'logger' | 'connectTimeoutMs'>> & Pick<NatsBusOptions, 'outbox' | 'logger'>;
  readonly #consumers = new Set<ConsumerState>();
  /** The last num_pending JetStream reported per durable consumer, kept while it cannot answer. */
  readonly #lastLag = new Map<string, number>();
  #flushTimer: NodeJS.Timeout | undefined;
  #flushing = false;
  /** Events waiting for the JetStream publish under way to finish. */
  #queue: QueuedEvent[] = [];
  #sending = false;
  /** False while the client is reconnecting: events then go to the outbox at once. */
  #connected = true;
  /** True while NATS is connected but not acknowledging in time: events go to the outbox at once. */
  #stalled = false;
  #closed = false;

  private constructor(nc: NatsConnection, jsm: JetStreamManager, options: NatsBusOptions) {
    this.#nc = nc;
    this.#jsm = jsm;
    this.#js = nc.jetstream();
    this.#options = { publishTimeoutMs: 5000, ackWaitMs: 500, ...options };
  }

  /** Connects (retrying for ever while the server is away), creates or updates the stream, starts the outbox. */
  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    // The first connection is retried here, a line per attempt, up to a bound (then a clear
    // failure); once connected the client reconnects for ever by itself.
    const startedAt = Date.now();
    const limitMs = options.connectTimeoutMs ?? 60_000;
    let nc: NatsConnection | undefined;
    for (let attempt = 1; nc === undefined; attempt += 1) {
      try {
        nc = await connect({
          servers: options.servers.split(','),
          name: options.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          // The client would build an Error per publish and per timer to give a timeout the
          // caller's stack: a few percent of a chat service's CPU at load, for lines that name
          // the subject and event anyway.
          noAsyncTraces: true,
        });
      } catch (error) {
        const waited = Date.now() - startedAt;
        if (waited + CONNECT_RETRY_MS > limitMs) throw new NatsUnreachableError(options.servers, waited, error);
        options.logger.warn(
          { servers: options.servers, attempt, reason: (error as { code?: unknown }).code ?? (error as Error).message },
          `NATS unreachable; retrying in ${CONNECT_RETRY_MS / 1000} s`,
        );
        await new Promise((resolve) => setTimeout(resolve, CONNECT_RETRY_MS));
      }
    }
    const jsm = await nc.jetstreamManager();
    const bus = new NatsBus(nc, jsm, options);
    void bus.#watchConnection();
    await bus.#ensureStream();
    bus.#flushTimer = setInterval(() => void bus.flushOutbox(), 1000);
    bus.#flushTimer.unref();
    void bus.flushOutbox();
    return bus;
  }

  /** Outages are logged when they start and when they end; events wait in the outbox meanwhile. */
  async #watchConnection(): Promise<void> {
    let lostAt = 0;
    for await (const status of this.#nc.status()) {
      if (status.type === Events.Disconnect && this.#connected) {
        this.#connected = false;
        lostAt = Date.now();
        this.#options.logger.warn({ servers: this.#options.servers }, 'NATS connection lost; events wait in the outbox until it is back');
      } else if (status.type === Events.Reconnect) {
        this.#connected = true;
        this.#options.logger.info(
          { servers: this.#options.servers, downMs: lostAt ? Date.now() - lostAt : undefined },
          'NATS connection back',
        );
        void this.flushOutbox();
      }
    }
  }

  async #ensureStream(): Promise<void> {
    const config = {
      name: this.#options.streamName,
      subjects: [...this.#options.streamSubjects],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      max_age: nanos(7 * 24 * 3600_000),
    };
    try {
      await this.#jsm.streams.info(config.name);
      await this.#jsm.streams.update(config.name, config);
    } catch {
      await this.#jsm.streams.add(config);
    }
  }

  /**
   * Resolves once the event is durable: acknowledged by JetStream, or in the outbox. Events
   * published while a JetStream publish is under way travel together in the next one (one
   * message, one acknowledgement, for all of them; no timer, so an idle publisher's event
   * leaves at once). The consumer applies each event by its own id.
   */
  publish<T>(subject: string, id: string, data: T, wire?: (data: T) => Uint8Array): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('bus is closed'));
    let payload: unknown;
    try {
      payload = wire ? wire(data) : data;
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ subject, id, data: payload, resolve, reject });
      this.#sendQueued();
    });
  }

  #sendQueued(): void {
    if (this.#sending || this.#queue.length === 0) return;
    // Bounded, so a message stays far below NATS's 1 MiB payload limit (an event is ~300 bytes).
    const batch = this.#queue.splice(0, MAX_EVENTS_PER_MESSAGE);
    this.#sending = true;
    const bySubject = new Map<string, QueuedEvent[]>();
    for (const event of batch) {
      const group = bySubject.get(event.subject);
      if (group) group.push(event);
      else bySubject.set(event.subject, [event]);
    }
    void Promise.all([...bySubject].map(([subject, events]) => this.#sendGroup(subject, events))).finally(() => {
      this.#sending = false;
      this.#sendQueued();
    });
  }

  async #sendGroup(subject: string, events: QueuedEvent[]): Promise<void> {
    const only = events.length === 1 ? events[0] : undefined;
    const msgID = only ? only.id : `batch:${events[0]?.id}:${events.length}`;
    // While the client is reconnecting, or NATS does not answer, a publish would only wait out its timeout.
    if (this.#connected && !this.#stalled) {
      try {
        const { payload, headers: marked } = encodeMessage(events);
        const acknowledged = this.#js.publish(subject, payload, {
          msgID,
          timeout: this.#options.publishTimeoutMs,
          ...(marked ? { headers: marked } : {}),
        });
        let waited: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          waited = setTimeout(() => resolve('late'), this.#options.ackWaitMs);
        });
        const outcome = await Promise.race([acknowledged, late]).finally(() => clearTimeout(waited));
        if (outcome !== 'late') {
          for (const event of events) event.resolve();
          return;
        }
        // Still unanswered: the events go to the outbox too (the consumer applies each by its
        // id, so a late acknowledgement of this publish counts nothing twice).
        acknowledged.catch(() => undefined);
        this.#stalled = true;
        this.#options.logger.warn(
          { servers: this.#options.servers, waitedMs: this.#options.ackWaitMs },
          'NATS is connected but not acknowledging; events go to the outbox until it answers',
        );
      } catch (error) {
        this.#options.logger.warn({ err: error, subject, events: events.length }, 'NATS did not acknowledge events; kept in the outbox');
      }
    }
    // Each event waits in the outbox on its own, republished under its own id.
    for (const event of events) {
      try {
        await this.#options.outbox.insertOne({
          _id: event.id,
          subject,
          data: toStored(event.data),
          attempts: 1,
          next_at: new Date(Date.now() + 500),
        });
        event.resolve();
      } catch (outboxError) {
        if (isDuplicateKey(outboxError)) event.resolve();
        else event.reject(outboxError);
      }
    }
  }

  /** Republishes what the outbox holds; an entry leaves it only once NATS acknowledged it. */
  async flushOutbox(): Promise<number> {
    if (this.#flushing || this.#closed) return 0;
    this.#flushing = true;
    let sent = 0;
    try {
      const due = await this.#options.outbox.find({ next_at: { $lte: new Date() } }, { sort: { next_at: 1 }, limit: 500 });
      for (const entry of due) {
        try {
          const { payload, headers: marked } = encodeMessage([{ id: entry._id, data: fromStored(entry.data) }]);
          await this.#js.publish(entry.subject, payload, {
            msgID: entry._id,
            timeout: this.#options.publishTimeoutMs,
            ...(marked ? { headers: marked } : {}),
          });
          await this.#options.outbox.deleteMany({ _id: entry._id });
          sent += 1;
          if (this.#stalled) {
            this.#stalled = false;
            this.#options.logger.info({ servers: this.#options.servers }, 'NATS acknowledging again; events go to it directly');
          }
        } catch {
          const backoff = Math.min(500 * 2 ** entry.attempts, MAX_BACKOFF_MS);
          await this.#options.outbox.updateOne(
            { _id: entry._id },
            { $inc: { attempts: 1 }, $set: { next_at: new Date(Date.now() + backoff) } },
          );
          break;
        }
      }
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'outbox flush failed');
    } finally {
      this.#flushing = false;
    }
    if (sent > 0) this.#options.logger.info({ sent }, 'outbox events delivered to NATS');
    return sent;
  }

  async outboxSize(): Promise<number> {
    return this.#options.outbox.countDocuments({});
  }

  async consume<T>(filter: string, durableName: string, handler: EventHandler<T>): Promise<Subscription> {
    await this.#ensureConsumer(filter, durableName);
    const state: ConsumerState = { durableName, closed: false, messages: undefined };
    this.#consumers.add(state);
    let failures = 0;
    this.#read<T>(state, async (message, events) => {
      try {
        // A batch is acknowledged once all its events are applied; redelivered, the ones
        // applied already are recognised by their ids.
        for (const event of events) await handler(event);
        message.ack();
        failures = 0;
      } catch (error) {
        failures += 1;
        this.#options.logger.warn({ err: error, subject: message.subject, eventId: events[0]?.id }, 'event handler failed; redelivering');
        message.nak(Math.min(100 * 2 ** failures, 5000));
      }
    });
    return {
      close: async () => {
        state.closed = true;
        state.messages?.stop();
        this.#consumers.delete(state);
      },
    };
  }

  /**
   * Messages are read as JetStream sends them (up to 256 pulled ahead) into a BatchQueue, which
   * hands the events of the messages that arrived together to the handler as one batch and
   * acks each message once its batch succeeded (nak with backoff otherwise).
   */
  async consumeBatches<T>(
    filter: string,
    durableName: string,
    handler: BatchHandler<T>,
    options: BatchOptions = {},
  ): Promise<Subscription> {
    await this.#ensureConsumer(filter, durableName);
    const state: ConsumerState = { durableName, closed: false, messages: undefined };
    const batches = new BatchQueue<T>({
      handler,
      maxEvents: options.maxEvents ?? DEFAULT_BATCH_EVENTS,
      windowMs: options.windowMs ?? DEFAULT_BATCH_WINDOW_MS,
      onFailure: (error, delivery) => {
        const first = delivery.events[0];
        this.#options.logger.warn(
          { err: error, subject: first?.subject, eventId: first?.id, events: delivery.events.length },
          'event handler failed; redelivering',
        );
      },
    });
    state.idle = () => batches.idle();
    this.#consumers.add(state);
    this.#read<T>(state, (message, events) => batches.add({ events, ack: () => message.ack(), nak: (delayMs) => message.nak(delayMs) }));
    return {
      close: async () => {
        state.closed = true;
        state.messages?.stop();
        this.#consumers.delete(state);
        // What was read is handled (and acked) before the connection drains; the rest stays in JetStream.
        await batches.idle();
      },
    };
  }

  /**
   * Reads the durable consumer's messages until it is closed, each decoded into its events
   * (one message may carry a batch), resuming after an interruption (a reconnect, a deleted
   * consumer) half a second later.
   */
  #read<T>(state: ConsumerState, take: (message: JsMsg, events: BusEvent<T>[]) => Promise<void>): void {
    const stream = this.#options.streamName;
    const run = async () => {
      while (!state.closed && !this.#closed) {
        try {
          const consumer = await this.#js.consumers.get(stream, state.durableName);
          state.messages = await consumer.consume({ max_messages: 256 });
          for await (const message of state.messages) {
            const id = message.headers?.get('Nats-Msg-Id') || `${stream}:${message.seq}`;
            // Never throws: what it cannot read is handed on as bytes, for the consumer to dead-letter.
            const events: BusEvent<T>[] = decodeMessage(message.data, message.headers?.get(ENCODING_HEADER) || undefined, id).map(
              (event) => ({ subject: message.subject, id: event.id, data: event.data as T }),
            );
            await take(message, events);
          }
        } catch (error) {
          if (state.closed || this.#closed) return;
          this.#options.logger.warn({ err: error, durable: state.durableName }, 'JetStream consumer interrupted; resuming');
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    };
    void run();
  }

  async #ensureConsumer(filter: string, durableName: string): Promise<void> {
    const stream = this.#options.streamName;
    const config = {
      durable_name: durableName,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: filter,
      ack_wait: nanos(30_000),
      max_deliver: -1,
    };
    try {
      await this.#jsm.consumers.info(stream, durableName);
    } catch {
      await this.#jsm.consumers.add(stream, config);
    }
  }

  async broadcast<T>(subject: string, data: T): Promise<void> {
    if (this.#closed) throw new Error('bus is closed');
    const { payload, headers: marked } = encodeMessage([{ id: '', data }]);
    this.#nc.publish(subject, payload, marked ? { headers: marked } : undefined);
  }

  async subscribe<T>(filter: string, handler: BroadcastHandler<T>): Promise<Subscription> {
    const subscription = this.#nc.subscribe(filter, {
      callback: (error, message) => {
        if (error) return;
        try {
          const [event] = decodeMessage(message.data, message.headers?.get(ENCODING_HEADER) || undefined, '');
          if (event) handler(event.data as T, message.subject);
        } catch (handlerError) {
          this.#options.logger.error({ err: handlerError, subject: message.subject }, 'broadcast subscriber failed');
        }
      },
    });
    return { close: async () => subscription.unsubscribe() };
  }

  /**
   * The outbox's size, and JetStream's num_pending for each durable consumer this process runs.
   * While NATS cannot answer (when the outbox matters most), consumers report their last known lag.
   */
  async stats(): Promise<BusStats> {
    const names = [...new Set([...this.#consumers].map((consumer) => consumer.durableName))];
    const [outboxDepth] = await Promise.all([
      this.outboxSize(),
      ...names.map((name) =>
        this.#jsm.consumers.info(this.#options.streamName, name).then(
          (info) => {
            this.#lastLag.set(name, info.num_pending);
          },
          () => undefined,
        ),
      ),
    ]);
    const consumerLag: Record<string, number> = {};
    for (const name of names) {
      const lag = this.#lastLag.get(name);
      if (lag !== undefined) consumerLag[name] = lag;
    }
    return { outboxDepth, consumerLag };
  }

  async caughtUp(_durableName: string, _timeoutMs?: number): Promise<void> {
    // Events are applied as they arrive, by whichever replica consumes them: nothing to wait for here.
  }

  async ping(): Promise<void> {
    if (this.#closed || this.#nc.isClosed()) throw new Error('NATS connection closed');
    await Promise.race([
      this.#nc.flush(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('NATS did not answer')), 1000).unref()),
    ]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#flushTimer);
    for (const consumer of this.#consumers) {
      consumer.closed = true;
      consumer.messages?.stop();
    }
    // Batches read already are handled and acked while the connection is still there.
    await Promise.all([...this.#consumers].map((consumer) => consumer.idle?.()));
    // Events being published finish first (acknowledged, or in the outbox).
    for (let waited = 0; (this.#sending || this.#queue.length > 0) && waited < this.#options.publishTimeoutMs * 2; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // One last try for events still in the outbox; what NATS does not take stays there for the next start.
    await this.flushOutbox();
    this.#closed = true;
    await this.#nc.drain().catch(() => this.#nc.close());
  }
}
