import { servedDeployments, type ChatGroupConfig, type DeploymentConfig, type Env, type RouterConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';

export interface Attempt {
  /** The group whose deployment serves this attempt (the requested one, or a fallback). */
  group: ChatGroupConfig;
  deployment: DeploymentConfig;
}

interface Health {
  consecutiveFails: number;
  cooledUntil: number;
}

/**
 * Picks deployments for a call: weighted at random among the group's served deployments that
 * are not cooled down, then `retries` more attempts (on other deployments while there are
 * any), then the same for each fallback group in order. A deployment that fails
 * `allowedFails` times in a row is skipped for `cooldownMs`.
 */
export class Router {
  readonly #health = new Map<DeploymentConfig, Health>();
  readonly #served = new Map<ChatGroupConfig, DeploymentConfig[]>();

  constructor(
    private readonly config: RouterConfig,
    private readonly groupsById: ReadonlyMap<string, ChatGroupConfig>,
    env: Env,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    for (const group of groupsById.values()) this.#served.set(group, servedDeployments(group, env));
  }

  /** The attempts for a call to `group`, lazily, so the plan adapts to failures as they happen. */
  *attempts(group: ChatGroupConfig): Generator<Attempt> {
    let any = false;
    for (const candidate of [group, ...group.fallbacks.map((id) => this.groupsById.get(id)).filter((g): g is ChatGroupConfig => g !== undefined)]) {
      const order = this.#order(this.#served.get(candidate) ?? []);
      if (order.length === 0) continue;
      for (let i = 0; i <= this.config.retries; i += 1) {
        any = true;
        yield { group: candidate, deployment: order[i % order.length] as DeploymentConfig };
      }
    }
    if (!any) throw new GatewayError('no_healthy_upstream');
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
