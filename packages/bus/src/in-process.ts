import { runOutsideScope, type Logger } from '@gateway/logging';
import { isDuplicateKey, type Collection } from '@gateway/store';
import { fromStored, toStored, type OutboxEntry } from './outbox.js';
import { DEFAULT_BATCH_EVENTS, DEFAULT_BATCH_WINDOW_MS } from './batches.js';
import {
  subjectMatches,
  type BatchHandler,
  type BatchOptions,
  type BroadcastHandler,
  type Bus,
  type BusEvent,
  type BusStats,
  type EventHandler,
  type Subscription,
} from './port.js';

// The embedded bus: everything stays in this process. It keeps the port's promises that matter
// in one process: a duplicate id is dropped, events wait for a consumer that has not started
// yet, and a failing handler gets the event again after a pause. With an outbox (the embedded
// store's table) an event is on disk before publish resolves and leaves it only once its
// consumer has handled it, so a crash of the process (kill -9) loses no event: the next start
// delivers what was left.

const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
/** Events kept for a consumer that has not started; a process whose consumer lives elsewhere must not grow without bound. */
const MAX_UNCLAIMED = 10_000;
const MAX_RETRY_DELAY_MS = 5000;
/** How long closing a consumer waits for its queued events to be handled. */
const CLOSE_DRAIN_MS = 10_000;
/** Events handled in one turn of the event loop (and, with a store, one transaction). */
const DRAIN_SLICE = 64;

interface Consumer {
  filter: string;
  /** Handles a slice of the queue; a per-event consumer's handler is called for each event in turn. */
  handler: BatchHandler<unknown>;
  /** Events per slice. */
  maxEvents: number;
  /** How long a drain waits for more after the first event (a batch consumer's window); 0: never. */
  windowMs: number;
  queue: BusEvent<unknown>[];
  running: boolean;
  scheduled: boolean;
  /** The pending drain's timer, when it waits out the window (cut short once a slice is full). */
  timer: NodeJS.Timeout | undefined;
  closed: boolean;
  /** Events ever queued for this consumer, and how many of them are handled (the queue is in order). */
  queued: number;
  handled: number;
  /** Readers waiting until `handled` reaches their mark (`caughtUp`). */
  waiters: { mark: number; done: () => void }[];
}

export interface InProcessBusOptions {
  logger?: Logger;
  /** First redelivery pause after a handler fails (doubles up to 5 s). */
  retryDelayMs?: number;
  /** Where events wait until handled. Without it events live in memory only (tests). */
  outbox?: Collection<OutboxEntry>;
  /**
   * The outbox's store transaction (`DocumentStore.atomically`): a handler's writes and the
   * removal of its event from the outbox then commit together, one write to disk per event.
   * Only for consumers that write to that same store and await nothing else.
   */
  atomically?: <R>(work: () => Promise<R>) => Promise<R>;
}

export class InProcessBus implements Bus {
  readonly kind = 'in-process';
  readonly #consumers = new Map<string, Consumer>();
  readonly #subscribers = new Set<{ filter: string; handler: BroadcastHandler<unknown> }>();
  /** Events no consumer matched yet, delivered to the first consumer that does. */
  readonly #unclaimed: BusEvent<unknown>[] = [];
  readonly #recentIds = new Map<string, number>();
  readonly #logger: Logger | undefined;
  readonly #retryDelayMs: number;
  readonly #outbox: Collection<OutboxEntry> | undefined;
  readonly #atomically: <R>(work: () => Promise<R>) => Promise<R>;
  /** Outbox entries waiting for this turn's group commit, with their publishers. */
  #staged: { entry: OutboxEntry; resolve: (stored: boolean) => void; reject: (error: unknown) => void }[] = [];
  #closed = false;

  constructor(options: InProcessBusOptions = {}) {
    this.#logger = options.logger;
    this.#retryDelayMs = options.retryDelayMs ?? 100;
    this.#outbox = options.outbox;
    this.#atomically = options.atomically ?? ((work) => work());
  }

  /** A bus whose outbox is `options.outbox`, holding what a previous run left undelivered. */
  static async open(options: InProcessBusOptions & { outbox: Collection<OutboxEntry> }): Promise<InProcessBus> {
    const bus = new InProcessBus(options);
    // At most what the process keeps waiting in memory; more stay in the table for a later start.
    const left = await options.outbox.find({}, { sort: { next_at: 1 }, limit: MAX_UNCLAIMED });
    for (const entry of left) bus.#unclaimed.push({ subject: entry.subject, id: entry._id, data: fromStored(entry.data) });
    if (left.length > 0) options.logger?.info({ events: left.length }, 'events left by the previous run will be delivered');
    if (left.length === MAX_UNCLAIMED) {
      options.logger?.warn(
        { kept: MAX_UNCLAIMED },
        'the outbox holds more events than one start delivers; the rest follow at the next start',
      );
    }
    return bus;
  }

  /** The event stays in this process: `wire` is not needed, and `data` reaches consumers as it is. */
  async publish<T>(subject: string, id: string, data: T, _wire?: (data: T) => Uint8Array): Promise<void> {
    this.#assertOpen();
    if (this.#outbox) {
      // On disk before the publisher goes on (its response, typically); a repeated id is taken
      // while the first is pending, and the consumer's own idempotency covers the rest.
      const stored = await this.#stage({ _id: id, subject, data: toStored(data), attempts: 0, next_at: new Date() });
      if (!stored) return;
    } else {
      const now = Date.now();
      this.#forgetOldIds(now);
      if (this.#recentIds.has(id)) return;
      this.#recentIds.set(id, now);
    }
    // Publishers hand over the event: it is not copied (a copy per call shows in the profile).
    const event: BusEvent<unknown> = { subject, id, data };
    let claimed = false;
    for (const consumer of this.#consumers.values()) {
      if (!consumer.closed && subjectMatches(consumer.filter, subject)) {
        consumer.queue.push(event);
        consumer.queued += 1;
        claimed = true;
        // Delivered after the publisher's current work (its response, typically) is done:
        // consumers such as the ledger stay off the request's path.
        this.#arrived(consumer);
      }
    }
    if (!claimed) {
      this.#unclaimed.push(event);
      if (this.#unclaimed.length > MAX_UNCLAIMED) {
        const dropped = this.#unclaimed.shift();
        this.#logger?.error(
          { subject: dropped?.subject, eventId: dropped?.id },
          this.#outbox
            ? 'no consumer in this process for an event; the oldest stays in the outbox until a consumer starts (configure NATS to carry events between processes)'
            : 'no consumer in this process for an event; dropped the oldest (configure NATS to carry events between processes)',
        );
      }
    }
  }

  /**
   * Resolves once the entry is in the outbox (true), or with false when its id is already there.
   * The events published in one turn of the event loop go to disk in one transaction (a group
   * commit): under load one write to disk carries many calls' events instead of one each.
   */
  #stage(entry: OutboxEntry): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#staged.push({ entry, resolve, reject });
      if (this.#staged.length === 1) runOutsideScope(() => setImmediate(() => void this.#commitStaged()));
    });
  }

  async #commitStaged(): Promise<void> {
    const staged = this.#staged;
    this.#staged = [];
    const outbox = this.#outbox as Collection<OutboxEntry>;
    if (staged.length > 1) {
      try {
        await outbox.insertMany(staged.map((s) => s.entry));
        for (const s of staged) s.resolve(true);
        return;
      } catch {
        // One of them was already there (or the batch failed): each is written on its own, so
        // the duplicate is told apart from the others.
      }
    }
    for (const s of staged) {
      try {
        await outbox.insertOne(s.entry);
        s.resolve(true);
      } catch (error) {
        if (isDuplicateKey(error)) s.resolve(false);
        else s.reject(error);
      }
    }
  }

  async consume<T>(filter: string, durableName: string, handler: EventHandler<T>): Promise<Subscription> {
    const each = handler as EventHandler<unknown>;
    return this.#consume(filter, durableName, {
      handler: async (events) => {
        for (const event of events) await each(event);
      },
      maxEvents: DRAIN_SLICE,
      windowMs: 0,
    });
  }

  async consumeBatches<T>(
    filter: string,
    durableName: string,
    handler: BatchHandler<T>,
    options: BatchOptions = {},
  ): Promise<Subscription> {
    return this.#consume(filter, durableName, {
      handler: handler as BatchHandler<unknown>,
      maxEvents: options.maxEvents ?? DEFAULT_BATCH_EVENTS,
      windowMs: options.windowMs ?? DEFAULT_BATCH_WINDOW_MS,
    });
  }

  async #consume(
    filter: string,
    durableName: string,
    { handler, maxEvents, windowMs }: Pick<Consumer, 'handler' | 'maxEvents' | 'windowMs'>,
  ): Promise<Subscription> {
    this.#assertOpen();
    const existing = this.#consumers.get(durableName);
    const consumer: Consumer = {
      filter,
      handler,
      maxEvents,
      windowMs,
      // A restarted durable consumer resumes with what its predecessor had not finished.
      queue: existing ? existing.queue : [],
      running: false,
      scheduled: false,
      timer: undefined,
      closed: false,
      queued: 0,
      handled: 0,
      waiters: [],
    };
    if (existing) existing.closed = true;
    for (let i = 0; i < this.#unclaimed.length; ) {
      const event = this.#unclaimed[i];
      if (event && subjectMatches(filter, event.subject)) {
        consumer.queue.push(event);
        this.#unclaimed.splice(i, 1);
      } else {
        i += 1;
      }
    }
    consumer.queued = consumer.queue.length;
    if (existing) {
      // Readers waiting on the predecessor go on with what it applied; its queue is this one's now.
      InProcessBus.#release(existing);
    }
    this.#consumers.set(durableName, consumer);
    this.#schedule(consumer);
    return {
      close: async () => {
        // Events published before the close are handled first: in this process nothing else
        // ever would (a shutdown must not lose spend). Bounded, for a handler that keeps failing.
        const deadline = Date.now() + CLOSE_DRAIN_MS;
        while (!consumer.closed && (consumer.queue.length > 0 || consumer.running) && Date.now() < deadline) {
          if (!consumer.running) void this.#drain(consumer);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        consumer.closed = true;
        InProcessBus.#release(consumer);
      },
    };
  }

  /** A closed consumer handles nothing more: its readers go on with what it applied. */
  static #release(consumer: Consumer): void {
    for (const waiter of [...consumer.waiters]) waiter.done();
  }

  async caughtUp(durableName: string, timeoutMs = 1000): Promise<void> {
    const found = this.#consumers.get(durableName);
    if (!found || found.closed || found.handled >= found.queued) return;
    const consumer: Consumer = found;
    const mark = consumer.queued;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => waiter.done(), timeoutMs);
      timer.unref();
      const waiter = {
        mark,
        done: () => {
          clearTimeout(timer);
          const at = consumer.waiters.indexOf(waiter);
          if (at >= 0) consumer.waiters.splice(at, 1);
          resolve();
        },
      };
      consumer.waiters.push(waiter);
      // A drain waiting out its window for more events goes now.
      if (consumer.timer) {
        clearTimeout(consumer.timer);
        consumer.timer = undefined;
        consumer.scheduled = false;
        this.#schedule(consumer);
      }
    });
  }

  async broadcast<T>(subject: string, data: T): Promise<void> {
    this.#assertOpen();
    for (const subscriber of this.#subscribers) {
      if (!subjectMatches(subscriber.filter, subject)) continue;
      try {
        subscriber.handler(structuredClone(data), subject);
      } catch (error) {
        this.#logger?.error({ err: error, subject }, 'broadcast subscriber failed');
      }
    }
  }

  async subscribe<T>(filter: string, handler: BroadcastHandler<T>): Promise<Subscription> {
    this.#assertOpen();
    const subscriber = { filter, handler: handler as BroadcastHandler<unknown> };
    this.#subscribers.add(subscriber);
    return {
      close: async () => {
        this.#subscribers.delete(subscriber);
      },
    };
  }

  async ping(): Promise<void> {
    this.#assertOpen();
  }

  async stats(): Promise<BusStats> {
    const consumerLag: Record<string, number> = {};
    for (const [name, consumer] of this.#consumers) {
      // The event a running handler holds is delivered; the rest wait.
      if (!consumer.closed) consumerLag[name] = Math.max(0, consumer.queue.length - (consumer.running ? 1 : 0));
    }
    return { outboxDepth: this.#outbox ? await this.#outbox.countDocuments({}) : 0, consumerLag };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const consumer of this.#consumers.values()) {
      consumer.closed = true;
      InProcessBus.#release(consumer);
    }
    this.#subscribers.clear();
  }

  /**
   * Delivery runs in a turn of its own, after the publisher's current work (its response,
   * typically) is done: consumers such as the ledger stay off the request's path, and a
   * consumer's store transaction has the turn to itself.
   */
  #schedule(consumer: Consumer, waitMs = 0): void {
    if (consumer.running || consumer.scheduled) return;
    consumer.scheduled = true;
    const drain = () => {
      consumer.scheduled = false;
      consumer.timer = undefined;
      void this.#drain(consumer);
    };
    // Outside the publisher's request scope: the consumer handles events of many requests in
    // one run, and its log lines must not name the first of them.
    runOutsideScope(() => {
      if (waitMs > 0) consumer.timer = setTimeout(drain, waitMs);
      else setImmediate(drain);
    });
  }

  /**
   * An event was queued for the consumer. A batch consumer's drain waits out its window (a lone
   * event's too), or until a slice is full; a per-event consumer's goes at the next turn. The
   * consumer shares the publisher's thread: handled at the next turn, a lone event's store
   * transaction ran just as the caller's next request arrived (a client that calls again as soon
   * as it has its answer, a stream's next call) and held it up; a window later it falls between
   * calls. Readers of what it writes cut the wait short (`caughtUp`).
   */
  #arrived(consumer: Consumer): void {
    if (consumer.timer && consumer.queue.length >= consumer.maxEvents) {
      clearTimeout(consumer.timer);
      consumer.timer = undefined;
      consumer.scheduled = false;
    }
    this.#schedule(consumer, consumer.queue.length < consumer.maxEvents ? consumer.windowMs : 0);
  }

  async #drain(consumer: Consumer): Promise<void> {
    if (consumer.running) return;
    consumer.running = true;
    let delay = this.#retryDelayMs;
    let slice = consumer.maxEvents;
    let first = true;
    try {
      while (!consumer.closed && consumer.queue.length > 0) {
        // A backlog is handled a slice per turn of the event loop, so requests are served meanwhile.
        if (!first) await new Promise((resolve) => setImmediate(resolve));
        first = false;
        const events = consumer.queue.slice(0, slice);
        try {
          // The slice's handling and its removal from the outbox commit together: one write to
          // disk for a slice of events under load. A crash before the commit delivers them
          // again, and consumers apply an id once.
          await this.#atomically(async () => {
            await consumer.handler(events);
            await this.#outbox?.deleteMany(events.length === 1 ? { _id: events[0]?.id } : { _id: { $in: events.map((e) => e.id) } });
          });
        } catch (error) {
          // A failed slice was rolled back whole: its events go again one at a time, so the one
          // that fails waits alone and the others get through.
          if (events.length > 1) {
            slice = 1;
            continue;
          }
          const event = events[0] as BusEvent<unknown>;
          this.#logger?.warn({ err: error, subject: event.subject, eventId: event.id }, 'event handler failed; redelivering');
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
          delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
          continue;
        }
        consumer.queue.splice(0, events.length);
        consumer.handled += events.length;
        if (consumer.waiters.length > 0) {
          for (const waiter of consumer.waiters.filter((w) => w.mark <= consumer.handled)) waiter.done();
        }
        delay = this.#retryDelayMs;
        slice = consumer.maxEvents;
      }
    } finally {
      consumer.running = false;
    }
  }

  #forgetOldIds(now: number): void {
    for (const [id, at] of this.#recentIds) {
      if (now - at < DUPLICATE_WINDOW_MS) break;
      this.#recentIds.delete(id);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('bus is closed');
  }
}
