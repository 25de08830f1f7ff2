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
}

/**
 * Picks deployments for a call: weighted at random among the group's served deployments that
 * are not cooled down, then `retries` more attempts (on other deployments while there are
 * any), then the same for each fallback group in order. A deployment that fails
 * `allowedFails` times in a row is skipped for `cooldownMs`. One instance per service process:
 * health is what this process has seen.
 */
export class Router<G extends GroupConfig> {
  readonly #health = new Map<DeploymentConfig, Health>();
  readonly #served = new Map<G, DeploymentConfig[]>();

  constructor(
    private readonly config: RouterConfig,
    private readonly groupsById: ReadonlyMap<string, G>,
    env: Env,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    for (const group of groupsById.values()) this.#served.set(group, servedDeployments(group, env));
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
      if (order.length === 0) continue;
      for (let i = 0; i <= this.config.retries; i += 1) {
        any = true;
        yield { group: candidate, deployment: order[i % order.length] as DeploymentConfig };
      }
    }
    if (!any) throw new GatewayError('no_healthy_upstream');
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
        if (error.retryable) this.failed(attempt.deployment);
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
    }
  }

  failed(deployment: DeploymentConfig): void {
    const health = this.#health.get(deployment) ?? { consecutiveFails: 0, cooledUntil: 0 };
    health.consecutiveFails += 1;
    if (health.consecutiveFails >= this.config.allowedFails) {
      health.cooledUntil = this.now() + this.config.cooldownMs;
      health.consecutiveFails = 0;
    }
    this.#health.set(deployment, health);
  }

  isCooledDown(deployment: DeploymentConfig): boolean {
    return (this.#health.get(deployment)?.cooledUntil ?? 0) > this.now();
  }

  /** Healthy deployments in weighted random order (without replacement). */
  #order(deployments: readonly DeploymentConfig[]): DeploymentConfig[] {
    const pool = deployments.filter((d) => !this.isCooledDown(d));
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
