import { AccountingClient, ChatClient, VideoClient } from '@gateway/contracts';
import { checkHealth, createHealthClient, type HealthStatus } from '@gateway/grpc';
import { GatewayError } from '@gateway/errors';
import type { HealthClient } from '@gateway/protos';
import { setDownstreamUp } from '@gateway/telemetry';

export interface DownstreamAddresses {
  accounting: string;
  chat: string;
  video: string;
}

export type DownstreamName = keyof DownstreamAddresses;

/** What the edge's probes last found: serving, saying it does not serve, or not answering. */
export type DownstreamState = 'up' | 'not_serving' | 'unreachable';

export interface WatchOptions {
  intervalMs: number;
  /** Each probe's deadline: a hung service is one that does not answer within it. */
  deadlineMs: number;
  /** Failed probes in a row before a service counts as down (one slow answer under load is not an outage). */
  failuresToDown: number;
  /** Said once per change. */
  onChange: (name: DownstreamName, state: DownstreamState, previous: DownstreamState) => void;
}

/** What a 503 for a service found down tells the caller: a few probes' time. */
const RETRY_AFTER_SECONDS = 5;

export const DEFAULT_WATCH: Omit<WatchOptions, 'onChange'> = { intervalMs: 1000, deadlineMs: 1500, failuresToDown: 2 };

/** The edge's long-lived connections to the three services (one channel each, reused). */
export class Downstream {
  readonly accounting: AccountingClient;
  readonly chat: ChatClient;
  readonly video: VideoClient;
  readonly #health: Record<DownstreamName, HealthClient>;
  // Up until probes say otherwise: a start does not refuse calls before the first probe.
  readonly #state: Record<DownstreamName, DownstreamState> = { accounting: 'up', chat: 'up', video: 'up' };
  readonly #failures: Record<DownstreamName, number> = { accounting: 0, chat: 0, video: 0 };
  /** Aborted when the probes find that service not answering; a fresh one once it answers again. */
  readonly #unreachable: Record<DownstreamName, AbortController> = {
    accounting: new AbortController(),
    chat: new AbortController(),
    video: new AbortController(),
  };
  #watching: NodeJS.Timeout | undefined;

  constructor(addresses: DownstreamAddresses) {
    this.accounting = new AccountingClient(addresses.accounting);
    this.chat = new ChatClient(addresses.chat);
    this.video = new VideoClient(addresses.video);
    this.#health = {
      accounting: createHealthClient(addresses.accounting),
      chat: createHealthClient(addresses.chat),
      video: createHealthClient(addresses.video),
    };
  }

  /** grpc.health.v1 status of each service, asked in parallel. */
  async health(): Promise<Record<DownstreamName, HealthStatus>> {
    const names = Object.keys(this.#health) as DownstreamName[];
    const statuses = await Promise.all(names.map((name) => checkHealth(this.#health[name])));
    return Object.fromEntries(names.map((name, i) => [name, statuses[i]])) as Record<DownstreamName, HealthStatus>;
  }

  /**
   * Refuses at once, with a retryable 503, a call whose service the probes found down: waiting
   * out a deadline per call would only hold the caller (and a connection) for nothing.
   */
  refuseWhileDown(name: DownstreamName): void {
    const refusal = this.refusal(name);
    if (refusal) throw refusal;
  }

  /** The 503 a call to that service gets right now, if any (for callback-style hooks: no promise per call). */
  refusal(name: DownstreamName): GatewayError | undefined {
    const state = this.#state[name];
    if (state === 'up') return undefined;
    return new GatewayError('service_unavailable', {
      message: `The ${name} service is ${state === 'not_serving' ? 'not serving' : 'not answering'} right now; retry shortly.`,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
  }

  /**
   * Aborts when the probes find the service not answering (hung or gone): calls in flight to it
   * end then rather than at their deadlines. Not when it says it does not serve: a service
   * draining for shutdown still finishes the calls it has.
   */
  unreachable(name: DownstreamName): AbortSignal {
    return this.#unreachable[name].signal;
  }

  /** The state the background probes last found (see watch). */
  state(name: DownstreamName): DownstreamState {
    return this.#state[name];
  }

  /**
   * Probes every service in the background, so a route whose service is down can answer 503 at
   * once instead of waiting a deadline per call, and metrics show each service's state.
   */
  watch(options: WatchOptions): void {
    if (this.#watching) return;
    for (const name of Object.keys(this.#state) as DownstreamName[]) setDownstreamUp(name, true);
    let probing = false;
    this.#watching = setInterval(() => {
      if (probing) return;
      probing = true;
      void this.#probe(options).finally(() => {
        probing = false;
      });
    }, options.intervalMs);
    this.#watching.unref();
  }

  async #probe(options: WatchOptions): Promise<void> {
    const names = Object.keys(this.#health) as DownstreamName[];
    const statuses = await Promise.all(names.map((name) => checkHealth(this.#health[name], '', options.deadlineMs)));
    names.forEach((name, i) => {
      const found: DownstreamState = statuses[i] === 'SERVING' ? 'up' : statuses[i] === 'NOT_SERVING' ? 'not_serving' : 'unreachable';
      this.#failures[name] = found === 'up' ? 0 : this.#failures[name] + 1;
      const previous = this.#state[name];
      const next = found === 'up' || this.#failures[name] >= options.failuresToDown ? found : previous;
      if (next === previous || !this.#watching) return;
      this.#state[name] = next;
      if (next === 'unreachable') this.#unreachable[name].abort();
      else if (previous === 'unreachable') this.#unreachable[name] = new AbortController();
      setDownstreamUp(name, next === 'up');
      options.onChange(name, next, previous);
    });
  }

  unwatch(): void {
    clearInterval(this.#watching);
    this.#watching = undefined;
  }

  close(): void {
    this.unwatch();
    this.accounting.close();
    this.chat.close();
    this.video.close();
    for (const client of Object.values(this.#health)) client.close();
  }
}
