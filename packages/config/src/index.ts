import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseConfig } from './validate.js';
import { type ConfigIssue, DEMO_PROVIDER, type DeploymentConfig, type GatewayConfig, type GroupConfig, type GroupMode } from './types.js';

export * from './types.js';
export { ConfigError, parseConfig } from './validate.js';

/**
 * Deployments naming a provider the service of their mode does not have. The registries live in
 * the services (one folder per provider); each service checks its own mode at start, and
 * `gateway config check` checks both, so a typo is a configuration error, never a crash.
 */
export function unknownProviders(
  config: GatewayConfig,
  mode: GroupMode,
  known: ReadonlySet<string> | ReadonlyMap<string, unknown>,
): ConfigIssue[] {
  const names = [...known.keys()].join(', ');
  return config.groups
    .filter((group) => group.mode === mode)
    .flatMap((group) =>
      group.deployments.flatMap((deployment, i) =>
        known.has(deployment.provider)
          ? []
          : [
              {
                path: `${group.path}.deployments[${i}].provider`,
                message: `unknown ${mode} provider "${deployment.provider}" (known: ${names})`,
              },
            ],
      ),
    );
}

/** The example configuration shipped with the gateway: the specification's five groups. */
export const exampleConfigPath = fileURLToPath(new URL('../../../gateway.example.yaml', import.meta.url));

export async function loadConfig(path: string): Promise<GatewayConfig> {
  return parseConfig(await readFile(path, 'utf8'), path);
}

export type Env = Readonly<Record<string, string | undefined>>;

/** A deployment is served while its credential variable is set and non-empty. */
export function isDeploymentServed(deployment: DeploymentConfig, env: Env = process.env): boolean {
  if (deployment.provider === DEMO_PROVIDER) return true;
  const value = env[deployment.apiKeyEnv];
  return value !== undefined && value.trim() !== '';
}

export function servedDeployments(group: GroupConfig, env: Env = process.env): DeploymentConfig[] {
  return group.deployments.filter((d) => isDeploymentServed(d, env));
}

/** Groups with at least one served deployment, optionally of one mode. */
export function servedGroups(config: GatewayConfig, mode?: GroupMode, env: Env = process.env): GroupConfig[] {
  return config.groups.filter((g) => (mode === undefined || g.mode === mode) && servedDeployments(g, env).length > 0);
}

/** A configured group that no deployment can serve, and the credential variables that would serve it. */
export interface UnservedGroup {
  id: string;
  mode: GroupMode;
  /** Unset variables, one per deployment, in the order the config lists them (no repeats). */
  unset: string[];
}

/** What this environment serves of a configuration: the served groups, and the others with what they lack. */
export function servingReport(config: GatewayConfig, env: Env = process.env): { served: GroupConfig[]; unserved: UnservedGroup[] } {
  const served: GroupConfig[] = [];
  const unserved: UnservedGroup[] = [];
  for (const group of config.groups) {
    if (servedDeployments(group, env).length > 0) served.push(group);
    else unserved.push({ id: group.id, mode: group.mode, unset: [...new Set(group.deployments.map((d) => d.apiKeyEnv))] });
  }
  return { served, unserved };
}

/** Resolves a `model` string (a group id or alias) to its group. */
export class GroupIndex {
  readonly #byName = new Map<string, GroupConfig>();

  constructor(groups: readonly GroupConfig[]) {
    for (const group of groups) {
      this.#byName.set(group.id, group);
      for (const alias of group.aliases) this.#byName.set(alias, group);
    }
  }

  resolve(model: string): GroupConfig | undefined {
    return this.#byName.get(model);
  }
}
