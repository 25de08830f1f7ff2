import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { InProcessBus, NatsBus, openOutbox, type Bus } from '@gateway/bus';
import { modeMessage, SPEND_STREAM, SPEND_SUBJECTS } from '@gateway/contracts';
import {
  exampleConfigPath,
  loadConfig,
  servingReport,
  type Env,
  type GatewayConfig,
  type GroupConfig,
  type GroupMode,
} from '@gateway/config';
import type { DeploymentHealth, DeploymentState, ModelGroup } from '@gateway/protos';
import type { DeploymentHealthView } from '@gateway/upstream';
import { inProcessAddress, type GrpcServer } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import {
  connectMongo,
  defaultSqliteDriver,
  importLegacyEmbedded,
  sqliteDriverAvailable,
  SqliteStore,
  type DocumentStore,
  type SqliteDriverName,
} from '@gateway/store';
import { countStoreWrite } from '@gateway/telemetry';

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
  /** Where callers in this same process reach it without a socket (an inproc: address), when it serves them. */
  readonly inProcessAddress?: string;
  /** Where its own metrics server listens (the edge's), when it runs one. */
  readonly metricsPort?: number;
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
    atomically: (work) => store.atomically(work),
    transactional: store.transactional,
    transaction: (work) => store.transaction(work),
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
  // Started by a supervisor (gateway start --separate) over an IPC channel: when it is gone, even
  // killed outright, its children stop too rather than run on as orphans.
  if (process.connected) process.once('disconnect', () => onSignal('SIGTERM'));
  else if (process.send !== undefined) onSignal('SIGTERM'); // its supervisor went while it started
}

/** A served group as the chat and video services describe it to the edge. */
export function modelGroupMessage(group: GroupConfig): ModelGroup {
  return {
    id: group.id,
    aliases: [...group.aliases],
    mode: modeMessage(group.mode),
    max_input_tokens: group.maxInputTokens ?? 0,
    max_output_tokens: group.maxOutputTokens ?? 0,
    // The configuration says seconds (as /v1/models shows them); every time on the wire is ms.
    created_at_ms: group.created * 1000,
  };
}

const DEPLOYMENT_STATE: Readonly<Record<DeploymentHealthView['state'], DeploymentState>> = {
  healthy: 'DEPLOYMENT_STATE_HEALTHY',
  cooling_down: 'DEPLOYMENT_STATE_COOLING_DOWN',
  rate_limited: 'DEPLOYMENT_STATE_RATE_LIMITED',
};

/** A router's view of its deployments as the chat and video services send it to the edge. */
export function deploymentHealthMessage(view: DeploymentHealthView): DeploymentHealth {
  return {
    group: view.group,
    index: view.index,
    provider: view.provider,
    model: view.model,
    state: DEPLOYMENT_STATE[view.state],
    consecutive_failures: view.consecutiveFailures,
    until_ms: view.untilMs,
    recent_errors: view.recentFailures,
    last_error_kind: view.lastFailure?.kind ?? '',
    last_error_at_ms: view.lastFailure?.atMs ?? 0,
  };
}

/** A loopback port nothing listens on right now (for ports chosen at start, and tests). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The address a service listens on when it runs as its own process: GRPC_HOST:GRPC_PORT. */
export function grpcListenAddress(name: Exclude<ServiceName, 'edge'>, env: Env = process.env): string {
  return `${env.GRPC_HOST ?? '0.0.0.0'}:${env.GRPC_PORT ?? DEFAULT_PORTS[name]}`;
}

export interface ServeGrpcOptions {
  name: Exclude<ServiceName, 'edge'>;
  server: GrpcServer;
  /** host:port; port 0 picks a free one. */
  listen: string;
  logger: Logger;
  /** Releases what the service opened, after the server has drained. */
  release: () => Promise<void>;
  /** Also serve callers in this process directly, at `inProcessAddress` (the one-process start). */
  inProcess?: boolean;
}

/** Binds a built gRPC service and hands back its running form. */
export async function serveGrpc({ name, server, listen, logger, release, inProcess }: ServeGrpcOptions): Promise<RunningService> {
  const port = await server.listen(listen);
  const address = `${listen.slice(0, listen.lastIndexOf(':'))}:${port}`;
  // Named after the port it also listens on, so several gateways in one process (tests) never share one.
  const inProcessAt = inProcess ? inProcessAddress(`${name}@${address}`) : undefined;
  if (inProcessAt) server.listenInProcess(inProcessAt);
  logger.info({ port, ...(inProcessAt ? { inProcess: inProcessAt } : {}) }, `${name} listening`);
  return {
    name,
    address,
    port,
    ...(inProcessAt ? { inProcessAddress: inProcessAt } : {}),
    close: async () => {
      await server.close();
      await release();
    },
  };
}

/** What a service run alone gets from its process. */
export interface ProcessContext extends ServiceDeps {
  /** Opens the store the environment names (MongoDB or the embedded one). */
  openStore(): Promise<DocumentStore>;
}

export interface OpenedBus {
  bus: Bus;
  close(): Promise<void>;
}

/** `SQLITE_DRIVER`: `node` (`node:sqlite`, the default from Node 24 on) or `libsql`. */
export function sqliteDriverOf(env: Env): SqliteDriverName {
  const named = env.SQLITE_DRIVER?.toLowerCase();
  if (named === undefined || named === '') return defaultSqliteDriver();
  const driver = named === 'node' || named === 'node:sqlite' ? 'node:sqlite' : named === 'libsql' ? 'libsql' : undefined;
  if (driver === undefined) throw new Error(`SQLITE_DRIVER must be "node" or "libsql", not "${env.SQLITE_DRIVER}"`);
  if (!sqliteDriverAvailable(driver)) {
    throw new Error(`SQLITE_DRIVER=${env.SQLITE_DRIVER} needs node:sqlite, which Node ${process.version} lacks (Node ≥ 22.16 has it)`);
  }
  return driver;
}

/**
 * The process's embedded SQLite store (`gateway.db` in the data folder): the whole store in
 * embedded mode, and the bus's outbox in every mode. A folder written by the previous embedded
 * store (one nedb file per collection) is imported into it on the first open, once.
 */
export async function openEmbeddedStore(env: Env, logger: Logger): Promise<SqliteStore> {
  const dir = dataDir(env);
  const synchronous = env.SQLITE_SYNCHRONOUS?.toLowerCase();
  if (synchronous !== undefined && synchronous !== 'normal' && synchronous !== 'full') {
    throw new Error(`SQLITE_SYNCHRONOUS must be "normal" or "full", not "${env.SQLITE_SYNCHRONOUS}"`);
  }
  const driver = sqliteDriverOf(env);
  const store = new SqliteStore(dir, { synchronous: synchronous ?? 'normal', onWrite: countStoreWrite, driver });
  try {
    const imported = await importLegacyEmbedded(dir, store);
    if (imported)
      logger.info(
        { collections: imported.collections, movedTo: imported.movedTo },
        'imported the data folder written by the previous embedded store',
      );
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** MongoDB when MONGODB_URI is set, else the embedded store in the data folder. */
export async function openStore(env: Env, logger: Logger): Promise<DocumentStore> {
  return env.MONGODB_URI ? connectMongo(env.MONGODB_URI, { onWrite: countStoreWrite }) : openEmbeddedStore(env, logger);
}

/**
 * NATS JetStream when NATS_URL is set, else the in-process bus; either way events that must
 * not be lost wait in the outbox table of the process's embedded store until they are done
 * with (acknowledged by JetStream, or handled by their consumer in this process).
 */
export async function openBus(name: string, env: Env, logger: Logger): Promise<OpenedBus> {
  const outboxStore = await openEmbeddedStore(env, logger);
  const busLogger = logger.child({ component: 'bus' });
  try {
    const outbox = await openOutbox(outboxStore, { byDueTime: Boolean(env.NATS_URL) });
    const bus: Bus = env.NATS_URL
      ? await NatsBus.connect({
          servers: env.NATS_URL,
          logger: busLogger,
          name,
          outbox,
          streamName: SPEND_STREAM,
          streamSubjects: [SPEND_SUBJECTS],
          ...(env.NATS_CONNECT_TIMEOUT_SECONDS ? { connectTimeoutMs: Number(env.NATS_CONNECT_TIMEOUT_SECONDS) * 1000 } : {}),
        })
      : await InProcessBus.open({
          logger: busLogger,
          outbox,
          // The consumer (accounting's ledger) writes to this same file unless the store is MongoDB;
          // a transaction must never wait on another database's I/O.
          ...(env.MONGODB_URI ? {} : { atomically: <R>(work: () => Promise<R>) => outboxStore.atomically(work) }),
        });
    if (env.NATS_URL) logger.info({ bus: 'nats' }, 'connected to NATS JetStream');
    return {
      bus,
      close: async () => {
        await bus.close();
        await outboxStore.close();
      },
    };
  } catch (error) {
    await outboxStore.close();
    throw error;
  }
}

/**
 * Logs, as a warning, each configured group (of `mode`, or every one) that this environment
 * cannot serve and the variables it lacks; returns how many groups are served.
 */
export function warnUnservedGroups(config: GatewayConfig, env: Env, logger: Logger, mode?: GroupMode): number {
  const { served, unserved } = servingReport(config, env);
  for (const group of unserved) {
    if (mode !== undefined && group.mode !== mode) continue;
    logger.warn({ group: group.id, unset: group.unset }, `group ${group.id} is not served: set ${group.unset.join(' or ')}`);
  }
  return served.filter((g) => mode === undefined || g.mode === mode).length;
}

/**
 * Runs one service as its own process, configured from the environment, until SIGINT or
 * SIGTERM. With NATS_URL its events cross processes over NATS; without it they stay in this
 * process.
 */
export async function runAlone(name: ServiceName, env: Env, start: (context: ProcessContext) => Promise<RunningService>): Promise<void> {
  const logger = createLogger({ name });
  const { config, usedExample } = await resolveConfig(env);
  if (usedExample) logger.info({ config: config.source }, 'no gateway.yaml found; using the shipped example configuration');
  if (!env.NATS_URL) logger.warn('NATS_URL is not set: spend and key-change events stay in this process');
  if (name === 'chat' || name === 'video') warnUnservedGroups(config, env, logger, name);
  const { bus, close: closeBus } = await openBus(name, env, logger);
  const service = await start({ config, bus, logger, env, openStore: () => openStore(env, logger) });
  closeOnSignal(logger, async () => {
    await service.close();
    await closeBus();
  });
  // A supervisor learns the process is serving from this message, whatever LOG_LEVEL hides.
  process.send?.({ type: 'ready', service: name, port: service.port });
}

export {
  DEFAULT_METRICS_PORT,
  metricsListenOptions,
  startMetricsServer,
  withProcessTelemetry,
  type MetricsServer,
  type MetricsServerOptions,
  type ProcessTelemetryOptions,
} from './metrics-server.js';
export { nodeHttp } from './node-http.js';
export { loadEncryptionKey } from './encryption-key.js';
