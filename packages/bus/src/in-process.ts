import { runOutsideScope, type Logger } from '@gateway/logging';
import {
  subjectMatches, type BroadcastHandler, type Bus, type BusEvent, type BusStats, type EventHandler, type Subscription,
} from './port.js';

// The embedded bus: everything stays in this process. It keeps the port's promises that matter
// in one process: a duplicate id within the window is dropped, events wait for a consumer that
// has not started yet, and a failing handler gets the event again after a pause.

const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
/** Events kept for a consumer that has not started; a process whose consumer lives elsewhere must not grow without bound. */
const MAX_UNCLAIMED = 10_000;
const MAX_RETRY_DELAY_MS = 5000;
/** How long closing a consumer waits for its queued events to be handled. */
const CLOSE_DRAIN_MS = 10_000;

interface Consumer {
  filter: string;
  handler: EventHandler<unknown>;
  queue: BusEvent<unknown>[];
  running: boolean;
  scheduled: boolean;
  closed: boolean;
}

export interface InProcessBusOptions {
  logger?: Logger;
  /** First redelivery pause after a handler fails (doubles up to 5 s). */
  retryDelayMs?: number;
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
  #closed = false;

  constructor(options: InProcessBusOptions = {}) {
    this.#logger = options.logger;
    this.#retryDelayMs = options.retryDelayMs ?? 100;
  }

  async publish<T>(subject: string, id: string, data: T): Promise<void> {
    this.#assertOpen();
    const now = Date.now();
    this.#forgetOldIds(now);
    if (this.#recentIds.has(id)) return;
    this.#recentIds.set(id, now);
    // Publishers hand over the event: it is not copied (a copy per call shows in the profile).
    const event: BusEvent<unknown> = { subject, id, data };
    let claimed = false;
    for (const consumer of this.#consumers.values()) {
      if (!consumer.closed && subjectMatches(consumer.filter, subject)) {
        consumer.queue.push(event);
        claimed = true;
        // Delivered after the publisher's current work (its response, typically) is done:
        // consumers such as the ledger stay off the request's path.
        if (!consumer.running && !consumer.scheduled) {
          consumer.scheduled = true;
          // Outside the publisher's request scope: the consumer handles events of many
          // requests in one run, and its log lines must not name the first of them.
          runOutsideScope(() => setImmediate(() => {
            consumer.scheduled = false;
            void this.#drain(consumer);
          }));
        }
      }
    }
    if (!claimed) {
      this.#unclaimed.push(event);
      if (this.#unclaimed.length > MAX_UNCLAIMED) {
        const dropped = this.#unclaimed.shift();
        this.#logger?.error({ subject: dropped?.subject, eventId: dropped?.id }, 'no consumer in this process for an event; dropped the oldest (configure NATS to carry events between processes)');
      }
    }
  }

  async consume<T>(filter: string, durableName: string, handler: EventHandler<T>): Promise<Subscription> {
    this.#assertOpen();
    const existing = this.#consumers.get(durableName);
    const consumer: Consumer = {
      filter,
      handler: handler as EventHandler<unknown>,
      // A restarted durable consumer resumes with what its predecessor had not finished.
      queue: existing ? existing.queue : [],
      running: false,
      scheduled: false,
      closed: false,
    };
    if (existing) existing.closed = true;
    for (let i = 0; i < this.#unclaimed.length;) {
      const event = this.#unclaimed[i];
      if (event && subjectMatches(filter, event.subject)) {
        consumer.queue.push(event);
        this.#unclaimed.splice(i, 1);
      } else {
        i += 1;
      }
    }
    this.#consumers.set(durableName, consumer);
    void this.#drain(consumer);
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
      },
    };
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
    return { outboxDepth: 0, consumerLag };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const consumer of this.#consumers.values()) consumer.closed = true;
    this.#subscribers.clear();
  }

  async #drain(consumer: Consumer): Promise<void> {
    if (consumer.running) return;
    consumer.running = true;
    let delay = this.#retryDelayMs;
    try {
      while (!consumer.closed && consumer.queue.length > 0) {
        const event = consumer.queue[0] as BusEvent<unknown>;
        try {
          await consumer.handler(event);
          consumer.queue.shift();
          delay = this.#retryDelayMs;
        } catch (error) {
          this.#logger?.warn({ err: error, subject: event.subject, eventId: event.id }, 'event handler failed; redelivering');
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
          delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        }
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
