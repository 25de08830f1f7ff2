import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BatchHandler, BusEvent } from './port.js';

// Batches for a durable consumer whose deliveries (NATS messages, each carrying one or more
// events) arrive one by one: what arrived together is handed to the handler as one batch, and
// each delivery is acknowledged only after the batch it was in succeeded.

/** Events per batch unless the consumer says otherwise. */
export const DEFAULT_BATCH_EVENTS = 256;
/** How long a batch started under load waits for more, unless the consumer says otherwise. */
export const DEFAULT_BATCH_WINDOW_MS = 5;
const MAX_RETRY_DELAY_MS = 5000;

/** Something the bus delivered: its events, and how to tell the bus they are done with or not. */
export interface Delivery<T> {
  events: readonly BusEvent<T>[];
  ack(): void;
  /** Not handled: the bus delivers it again after `delayMs`. */
  nak(delayMs: number): void;
}

interface Queued<T> {
  delivery: Delivery<T>;
  arrivedAt: number;
  /** Nothing arrived in the window before it: no load, so it goes at the next turn. */
  alone: boolean;
}

export interface BatchQueueOptions<T> {
  handler: BatchHandler<T>;
  maxEvents: number;
  windowMs: number;
  /** Told of each failed delivery before it is nak'ed (the adapter logs it). */
  onFailure(error: unknown, delivery: Delivery<T>): void;
}

/**
 * Gathers deliveries into batches of at most `maxEvents` events (a delivery is never split: one
 * carrying more is a batch on its own). A delivery that follows a quiet spell (none in the last
 * `windowMs`) is handled at the next turn of the event loop, with whatever else arrived by then,
 * so a lone event waits for nothing; under load a batch waits up to `windowMs` after its first
 * delivery, or until it is full. One batch runs at a time. A failed batch of several deliveries
 * is handled again one delivery at a time, so one that keeps failing waits alone (nak'ed with
 * backoff) and the others get through.
 */
export class BatchQueue<T> {
  readonly #options: BatchQueueOptions<T>;
  #queue: Queued<T>[] = [];
  #queuedEvents = 0;
  #lastArrival = Number.NEGATIVE_INFINITY;
  #running: Promise<void> | undefined;
  #failures = 0;
  /** Resolves the wait of a batch under load once the queue holds a full batch. */
  #full: (() => void) | undefined;
  /** Readers waiting for room (back-pressure), resolved as batches finish. */
  #roomWaiters: (() => void)[] = [];

  constructor(options: BatchQueueOptions<T>) {
    this.#options = options;
  }

  /** Events waiting for a batch, not counting the batch being handled. */
  get queuedEvents(): number {
    return this.#queuedEvents;
  }

  /**
   * Queues a delivery. Resolves at once unless four batches' worth of events are waiting:
   * then once there is room, so a reader that stops reading stops the bus sending more.
   */
  async add(delivery: Delivery<T>): Promise<void> {
    const now = performance.now();
    this.#queue.push({ delivery, arrivedAt: now, alone: now - this.#lastArrival >= this.#options.windowMs });
    this.#lastArrival = now;
    this.#queuedEvents += delivery.events.length;
    if (this.#queuedEvents >= this.#options.maxEvents) this.#full?.();
    this.#start();
    while (this.#queuedEvents >= this.#options.maxEvents * 4 && this.#running) {
      await new Promise<void>((resolve) => this.#roomWaiters.push(resolve));
    }
  }

  /** Resolves once nothing is queued or running (what was queued has been handled or nak'ed). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  #start(): void {
    if (this.#running) return;
    this.#running = this.#run().finally(() => {
      this.#running = undefined;
      // A delivery queued between the run's last look and its end.
      if (this.#queue.length > 0) this.#start();
    });
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      const head = this.#queue[0] as Queued<T>;
      const due = head.arrivedAt + this.#options.windowMs - performance.now();
      if (head.alone || due <= 0 || this.#queuedEvents >= this.#options.maxEvents) await nextTurn();
      else await this.#fullOrAfter(due);
      const batch = this.#take();
      await this.#handle(batch);
      for (const resolve of this.#roomWaiters.splice(0)) resolve();
    }
  }

  /** Waits `ms`, or less if the queue fills up meanwhile. */
  async #fullOrAfter(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#full?.(), ms);
      this.#full = () => {
        clearTimeout(timer);
        this.#full = undefined;
        resolve();
      };
    });
  }

  /** Whole deliveries from the head, up to maxEvents events (at least one delivery). */
  #take(): Delivery<T>[] {
    const batch: Delivery<T>[] = [];
    let events = 0;
    while (this.#queue.length > 0) {
      const next = this.#queue[0] as Queued<T>;
      if (batch.length > 0 && events + next.delivery.events.length > this.#options.maxEvents) break;
      this.#queue.shift();
      batch.push(next.delivery);
      events += next.delivery.events.length;
    }
    this.#queuedEvents -= events;
    return batch;
  }

  async #handle(batch: readonly Delivery<T>[]): Promise<void> {
    try {
      await this.#options.handler(batch.flatMap((delivery) => delivery.events));
    } catch (error) {
      if (batch.length > 1) {
        for (const delivery of batch) await this.#handle([delivery]);
        return;
      }
      const delivery = batch[0] as Delivery<T>;
      this.#failures += 1;
      this.#options.onFailure(error, delivery);
      delivery.nak(Math.min(100 * 2 ** this.#failures, MAX_RETRY_DELAY_MS));
      return;
    }
    // Acknowledged only now: the batch's effects are durable (the handler resolved after its commit).
    for (const delivery of batch) delivery.ack();
    this.#failures = 0;
  }
}
