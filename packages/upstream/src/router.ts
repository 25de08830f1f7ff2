import { servedDeployments, type DeploymentConfig, type Env, type GroupConfig, type RouterConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { UpstreamFailure, type FailureKind } from './failure.js';

export interface Attempt<G extends GroupConfig> {
  /** The group whose deployment serves this attempt (the requested one, or a fallback). */
  group: G;
  deployment: DeploymentConfig;
}

export interface Routed<G extends GroupConfig, T> {
  attempt: Attempt<G>;
  result: T;
}

export interface RouteHooks<G extends GroupConfig> {
  /** The caller went away: no further attempt is started. */
  signal?: AbortSignal;
  /** Whether a fallback group can take this request (the requested group always can). */
  accepts?: (group: G) => boolean;
  /** Once per attempt, with its outcome and its start (`performance.now()`), for metrics and spans. */
  onOutcome?: (attempt: Attempt<G>, outcome: 'ok' | FailureKind, startedAt: number) => void;
  /** Once per failed attempt, for the log line. */
  onFailure?: (attempt: Attempt<G>, failure: UpstreamFailure) => void;
}

interface Health {
  consecutiveFails: number;
  cooledUntil: number;
  /** Until when the upstream asked not to be called (a 429's Retry-After). */
  limitedUntil: number;
}

/** Failures seen lately, for the admin API's upstream health (only failures pay for it). */
interface FailureHistory {
  /** Unix ms of the failures within the window, oldest first, at most MAX_RECENT_FAILURES. */
  times: number[];
  lastKind: FailureKind;
  lastAt: number;
}

/** How far back "recent errors" look. */
export const RECENT_FAILURES_WINDOW_MS = 5 * 60_000;
const MAX_RECENT_FAILURES = 1000;

/** One served deployment as this process's router sees it. */
export interface DeploymentHealthView {
  group: string;
  /** Its position in the group's `deployments` (config order). */
  index: number;
  provider: string;
  model: string;
  state: 'healthy' | 'cooling_down' | 'rate_limited';
  consecutiveFailures: number;
  /** Unix ms when the cooldown or pause ends; 0 when healthy. */
  untilMs: number;
  /** Failed attempts within RECENT_FAILURES_WINDOW_MS. */
  recentFailures: number;
  lastFailure: { kind: FailureKind; atMs: number } | null;
}

/**
 * Picks deployments for a call: weighted at random among the group's served deployments that
 * are not cooled down or rate limited, then `retries` more attempts (on other deployments while
 * there are any), then the same for each fallback group in order. One instance per service
 * process: health is what this process has seen.
 *
 * Two rules keep the gateway from making an outage of its own:
 * - A deployment that fails `allowedFails` times in a row is skipped for `cooldownMs`, unless it
 *   is the last of its group not cooling down or rate limited: that one stays in rotation, and
 *   callers get the upstream's own failure, not a gateway-made 503.
 * - A 429 with `Retry-After` is the upstream asking for a pause, not a fault: that deployment is
 *   skipped for exactly that long (others serve meanwhile) and it does not count towards a
 *   cooldown. When every deployment that could serve is paused so, the caller gets 429 with the
 *   time left in `Retry-After`.
 */
export class Router<G extends GroupConfig> {
  readonly #health = new Map<DeploymentConfig, Health>();
  readonly #failures = new Map<DeploymentConfig, FailureHistory>();
  readonly #served = new Map<G, DeploymentConfig[]>();
  /** Each served deployment's group's served deployments (itself included). */
  readonly #siblings = new Map<DeploymentConfig, readonly DeploymentConfig[]>();

  constructor(
    private readonly config: RouterConfig,
    private readonly groupsById: ReadonlyMap<string, G>,
    env: Env,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    for (const group of groupsById.values()) {
      const served = servedDeployments(group, env);
      this.#served.set(group, served);
      for (const deployment of served) this.#siblings.set(deployment, served);
    }
  }

  /** The group's deployments whose credential is set. */
  served(group: G): readonly DeploymentConfig[] {
    return this.#served.get(group) ?? [];
  }

  /** The group and the fallbacks that may serve it, in order, with at least one served deployment. */
  candidates(group: G, accepts?: (group: G) => boolean): G[] {
    return this.#chain(group, accepts).filter((g) => (this.#served.get(g)?.length ?? 0) > 0);
  }

  #chain(group: G, accepts: ((group: G) => boolean) | undefined): G[] {
    const fallbacks = group.fallbacks.map((id) => this.groupsById.get(id)).filter((g): g is G => g !== undefined && (accepts?.(g) ?? true));
    return [group, ...fallbacks];
  }

  /** The attempts for a call to `group`, lazily, so the plan adapts to failures as they happen. */
  *attempts(group: G, accepts?: (group: G) => boolean): Generator<Attempt<G>> {
    let any = false;
    for (const candidate of this.#chain(group, accepts)) {
      const order = this.#order(this.#served.get(candidate) ?? []);
      for (let i = 0; i <= this.config.retries; i += 1) {
        // Asked again before each attempt: one that just asked for a pause is not called again.
        const usable = order.filter((d) => this.#usable(d));
        if (usable.length === 0) break;
        any = true;
        yield { group: candidate, deployment: usable[i % usable.length] as DeploymentConfig };
      }
    }
    if (any) return;
    // Nothing could be tried: rate limited (the upstream's pause, passed on) or nothing served.
    const now = this.now();
    const pauses = this.#chain(group, accepts)
      .flatMap((g) => this.#served.get(g) ?? [])
      .map((d) => (this.#health.get(d)?.limitedUntil ?? 0) - now)
      .filter((ms) => ms > 0);
    if (pauses.length > 0) {
      throw new GatewayError('upstream_rate_limited', { retryAfterSeconds: Math.ceil(Math.min(...pauses) / 1000) });
    }
    throw new GatewayError('no_healthy_upstream');
  }

  /**
   * Runs `run` on the attempts in order until one succeeds. A retryable failure counts against
   * the deployment and moves on; any other failure ends the call at once. Errors that are not
   * an `UpstreamFailure` (the gateway's own) are thrown as they are, never retried.
   */
  async route<T>(group: G, run: (attempt: Attempt<G>) => Promise<T>, hooks: RouteHooks<G> = {}): Promise<Routed<G, T>> {
    let last: UpstreamFailure | undefined;
    for (const attempt of this.attempts(group, hooks.accepts)) {
      if (hooks.signal?.aborted) break;
      const startedAt = performance.now();
      try {
        const result = await run(attempt);
        hooks.onOutcome?.(attempt, 'ok', startedAt);
        this.succeeded(attempt.deployment);
        return { attempt, result };
      } catch (error) {
        if (!(error instanceof UpstreamFailure)) throw error;
        hooks.onOutcome?.(attempt, error.kind, startedAt);
        last = error;
        this.#remember(attempt.deployment, error.kind);
        if (error.retryable) this.failed(attempt.deployment, error);
        hooks.onFailure?.(attempt, error);
        if (!error.retryable) break;
      }
    }
    if (hooks.signal?.aborted) throw new GatewayError('service_unavailable', { message: 'The caller went away.' });
    throw last ? last.toGatewayError() : new GatewayError('no_healthy_upstream');
  }

  succeeded(deployment: DeploymentConfig): void {
    const health = this.#health.get(deployment);
    if (health) {
      health.consecutiveFails = 0;
      health.cooledUntil = 0;
      health.limitedUntil = 0;
    }
  }

  /** Counts a retryable failure against the deployment (see the class comment for the two rules). */
  failed(deployment: DeploymentConfig, failure?: UpstreamFailure): void {
    const health = this.#health.get(deployment) ?? { consecutiveFails: 0, cooledUntil: 0, limitedUntil: 0 };
    this.#health.set(deployment, health);
    if (failure?.status === 429 && failure.retryAfterSeconds !== undefined) {
      health.limitedUntil = this.now() + failure.retryAfterSeconds * 1000;
      return;
    }
    health.consecutiveFails += 1;
    if (health.consecutiveFails < this.config.allowedFails) return;
    health.consecutiveFails = 0;
    const others = (this.#siblings.get(deployment) ?? []).filter((d) => d !== deployment && this.#usable(d));
    // The last usable one of its group stays: its callers hear the upstream, not a 503 of ours.
    if (others.length > 0) health.cooledUntil = this.now() + this.config.cooldownMs;
  }

  isCooledDown(deployment: DeploymentConfig): boolean {
    return (this.#health.get(deployment)?.cooledUntil ?? 0) > this.now();
  }

  /** Whether the upstream asked (429 with Retry-After) not to be called yet. */
  isRateLimited(deployment: DeploymentConfig): boolean {
    return (this.#health.get(deployment)?.limitedUntil ?? 0) > this.now();
  }

  /** Every served deployment of every group, in config order, with what this process has seen of it. */
  health(): DeploymentHealthView[] {
    const now = this.now();
    const views: DeploymentHealthView[] = [];
    for (const [group, served] of this.#served) {
      for (const deployment of served) {
        const health = this.#health.get(deployment);
        const history = this.#failures.get(deployment);
        const cooling = (health?.cooledUntil ?? 0) > now;
        const limited = (health?.limitedUntil ?? 0) > now;
        const since = now - RECENT_FAILURES_WINDOW_MS;
        views.push({
          group: group.id,
          index: group.deployments.indexOf(deployment),
          provider: deployment.provider,
          model: deployment.model,
          state: cooling ? 'cooling_down' : limited ? 'rate_limited' : 'healthy',
          consecutiveFailures: health?.consecutiveFails ?? 0,
          untilMs: cooling ? (health?.cooledUntil ?? 0) : limited ? (health?.limitedUntil ?? 0) : 0,
          recentFailures: history ? history.times.filter((at) => at > since).length : 0,
          lastFailure: history ? { kind: history.lastKind, atMs: history.lastAt } : null,
        });
      }
    }
    return views;
  }

  #remember(deployment: DeploymentConfig, kind: FailureKind): void {
    const now = this.now();
    const history = this.#failures.get(deployment) ?? { times: [], lastKind: kind, lastAt: now };
    this.#failures.set(deployment, history);
    history.lastKind = kind;
    history.lastAt = now;
    history.times.push(now);
    const since = now - RECENT_FAILURES_WINDOW_MS;
    let stale = 0;
    while (stale < history.times.length && (history.times[stale] as number) <= since) stale += 1;
    if (stale > 0 || history.times.length > MAX_RECENT_FAILURES)
      history.times.splice(0, Math.max(stale, history.times.length - MAX_RECENT_FAILURES));
  }

  #usable(deployment: DeploymentConfig): boolean {
    return !this.isCooledDown(deployment) && !this.isRateLimited(deployment);
  }

  /** Healthy deployments in weighted random order (without replacement). */
  #order(deployments: readonly DeploymentConfig[]): DeploymentConfig[] {
    const pool = deployments.filter((d) => this.#usable(d));
    const order: DeploymentConfig[] = [];
    while (pool.length > 0) {
      const total = pool.reduce((sum, d) => sum + d.weight, 0);
      let pick = this.random() * total;
      let index = 0;
      for (; index < pool.length - 1; index += 1) {
        pick -= (pool[index] as DeploymentConfig).weight;
        if (pick < 0) break;
      }
      order.push(...pool.splice(index, 1));
    }
    return order;
  }
}
