import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Bus } from '@gateway/bus';
import { exampleConfigPath, loadConfig, type Env, type GatewayConfig, type GroupConfig } from '@gateway/config';
import type { ModelGroup } from '@gateway/protos';
import type { Logger } from '@gateway/logging';
import type { DocumentStore } from '@gateway/store';

// What every service is given and what it hands back, so the four have one shape: a service is
// started with its dependencies already open, and returns something that can be closed.

export type ServiceName = 'edge' | 'chat' | 'video' | 'accounting';

export interface ServiceDeps {
  config: GatewayConfig;
  bus: Bus;
  logger: Logger;
  /** Where credential variables are read from. */
  env: Env;
}

export interface RunningService {
  readonly name: ServiceName;
  /** host:port it listens on. */
  readonly address: string;
  readonly port: number;
  /** Stops taking work, lets in-flight work finish within a bound, releases what it opened. */
  close(): Promise<void>;
}

/** Default ports when a service runs as its own process. */
export const DEFAULT_PORTS: Readonly<Record<ServiceName, number>> = {
  edge: 4000,
  accounting: 50051,
  chat: 50052,
  video: 50053,
};

/** Environment variable naming where another service listens (host:port). */
export const ADDRESS_ENV: Readonly<Record<Exclude<ServiceName, 'edge'>, string>> = {
  accounting: 'ACCOUNTING_ADDRESS',
  chat: 'CHAT_ADDRESS',
  video: 'VIDEO_ADDRESS',
};

export function serviceAddress(name: Exclude<ServiceName, 'edge'>, env: Env = process.env): string {
  return env[ADDRESS_ENV[name]] ?? `127.0.0.1:${DEFAULT_PORTS[name]}`;
}

export interface ResolvedConfig {
  config: GatewayConfig;
  /** True when no file was found and the shipped example is in use. */
  usedExample: boolean;
}

/** GATEWAY_CONFIG, else ./gateway.yaml, else the shipped example (the caller logs which). */
export async function resolveConfig(env: Env = process.env): Promise<ResolvedConfig> {
  const explicit = env.GATEWAY_CONFIG;
  if (explicit) return { config: await loadConfig(resolve(explicit)), usedExample: false };
  const local = resolve('gateway.yaml');
  if (existsSync(local)) return { config: await loadConfig(local), usedExample: false };
  return { config: await loadConfig(exampleConfigPath), usedExample: true };
}

export function dataDir(env: Env = process.env): string {
  return resolve(env.GATEWAY_DATA_DIR ?? './data');
}

/** A store that stays open when the service closes (it is shared with other services). */
export function borrowed(store: DocumentStore): DocumentStore {
  return {
    kind: store.kind,
    collection: (name, indexes) => store.collection(name, indexes),
    ping: () => store.ping(),
    close: async () => {},
  };
}

/**
 * Runs until SIGINT or SIGTERM, then closes what was started (in reverse) and exits; a second
 * signal exits at once.
 */
export function closeOnSignal(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    logger.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** A served group as the chat and video services describe it to the edge. */
export function modelGroupMessage(group: GroupConfig): ModelGroup {
  return {
    id: group.id,
    aliases: [...group.aliases],
    mode: group.mode,
    max_input_tokens: group.maxInputTokens ?? 0,
    max_output_tokens: group.maxOutputTokens ?? 0,
    created: group.created,
  };
}
