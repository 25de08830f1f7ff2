import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Env } from '@gateway/config';
import type { Logger } from '@gateway/logging';
import { dataDir, DEFAULT_PORTS, freePort, loadEncryptionKey, type ServiceName } from '@gateway/runtime';
import { UsageError } from './admin-commands.js';

// The gateway as separate processes on one machine: one process per service replica, talking
// gRPC on loopback and exchanging events over NATS, each with a data folder of its own. This
// is how the services run in Kubernetes, with this supervisor as the orchestrator: it starts
// them in dependency order, restarts one that dies (after a pause growing while it keeps
// dying) and passes signals on.

const BIN = resolve(fileURLToPath(import.meta.url), '../../bin/gateway.js');
/** The start command's Node flags, from its first line (`#!/usr/bin/env -S [NAME=VALUE ...] node FLAGS`). */
export const NODE_FLAGS: readonly string[] = (readFileSync(BIN, 'utf8').split('\n', 1)[0] ?? '')
  .replace(/^#!\S*env -S (?:\w+=\S*\s+)*node\s*/, '')
  .split(/\s+/)
  .filter((flag) => flag.startsWith('--'));

/**
 * A service process's Node flags (each child's; the container manifests' `command` too): the start
 * command's, with 8 MiB semi-spaces instead of 16, one V8 worker thread instead of Node's four, and
 * TurboFan's compiles on the main thread.
 * - One service allocates a fraction of what the one-process start does per call, so a smaller
 *   young generation costs it no throughput, and its RSS at load is 10–15 MiB lower; the
 *   one-process start keeps 16, where 8 cost 3–14% more CPU per call.
 * - Services share a machine's cores with each other (or run in pods of a core or two): each
 *   process's GC helper threads then take the CPU from another service's main thread in the
 *   middle of a call. With one, the added p99 at 300 calls/s fell from 8.5–14.6 ms to 5.4–6.9
 *   on two cores, with ~5% more throughput at saturation. The one-process start keeps Node's
 *   default: there its helpers only compete with itself.
 * - `--no-concurrent-recompilation`: on Node 24 chat and the edge peaked 20–27 MiB lower at load
 *   (150 and 148 MiB instead of 168–181 and 164–179), for the same CPU per call and p99 (the
 *   warm-up's too) and throughput within the runs' spread: a service's compiles share its cores
 *   either way. The one process keeps background compiles: its main thread is its bottleneck, and
 *   there streams fell 11–19%. Node 20 keeps them too: its V8 has no Maglev, so every
 *   optimization is a TurboFan compile, and on the main thread they showed in the tail (p99 at
 *   300 calls/s +8.7 and +16.2 ms against +4.7), while its services stay under 140 MiB without.
 * All measured in bench/history/2026-11-28-results-diary.md (its memory runs). The container manifests carry the image's line's (Node 24).
 */
export function serviceNodeFlags(nodeMajor: number): string[] {
  return [
    ...NODE_FLAGS.map((flag) => (flag.startsWith('--max-semi-space-size=') ? '--max-semi-space-size=8' : flag)),
    '--v8-pool-size=1',
    ...(nodeMajor >= 22 ? ['--no-concurrent-recompilation'] : []),
  ];
}

/** The service processes' flags on the Node running this command, which they run on too. */
export const SERVICE_NODE_FLAGS: readonly string[] = serviceNodeFlags(Number(process.versions.node.split('.')[0]));

/** Accounting first (the others call it), the edges last (they call everyone). */
const ORDER: readonly ServiceName[] = ['accounting', 'chat', 'video', 'edge'];

export type Replicas = Readonly<Record<ServiceName, number>>;

export interface ProcessesOptions {
  env: Env;
  logger: Logger;
  replicas: Replicas;
  /**
   * Free ports picked at start for everything internal (gRPC, metrics) and for edges after the
   * first, instead of the defaults (50051-50053 and 9464 up, then +10 per replica); the first
   * edge stays on PORT, the address callers know.
   */
  autoPorts: boolean;
  /**
   * Where the children's log lines go. By default they write to this process's stdout
   * themselves (it is theirs too): nothing relays a line, and each names its process.
   */
  output?: (line: string) => void;
}

export interface RunningProcesses {
  /** The edges' base URLs. */
  edges: string[];
  /** Where each process serves Prometheus metrics. */
  metrics: Readonly<Record<string, string>>;
  /** Every child, by name (`chat-1`, `chat-2`, …). */
  children: ReadonlyMap<string, ChildProcess>;
  /** Resolves once close() has stopped every child. */
  exited: Promise<void>;
  /** SIGTERM to every child (edges first, so they stop taking calls), then waits for them to exit. */
  close(): Promise<void>;
}

/** Parses `chat=2,edge=2` on top of one replica each. */
export function parseReplicas(text: string | undefined): Replicas {
  const replicas: Record<ServiceName, number> = { edge: 1, chat: 1, video: 1, accounting: 1 };
  for (const part of (text ?? '').split(',').filter(Boolean)) {
    const [name, count] = part.split('=');
    const n = Number(count);
    if (!name || !(name in replicas)) throw new UsageError(`--replicas: unknown service "${name ?? ''}" (edge, chat, video or accounting)`);
    if (!Number.isInteger(n) || n < 1 || n > 16) throw new UsageError(`--replicas: ${name} needs a whole number from 1 to 16`);
    replicas[name as ServiceName] = n;
  }
  return replicas;
}

interface Planned {
  name: string;
  service: ServiceName;
  port: number;
  /** Where the process serves /metrics. */
  metricsPort?: number;
}

/** Restart delays: one second, doubling while a process keeps dying, at most half a minute. */
const RESTART_FIRST_MS = 1000;
const RESTART_MAX_MS = 30_000;
/** A process up this long has recovered: its next failure is restarted after the first delay again. */
const STABLE_AFTER_MS = 60_000;

/** The first gRPC process's metrics port when ports are not picked at start; the next ones count up. */
const METRICS_BASE_PORT = 9464;

/**
 * Where `--auto-ports` picks from: below the range the OS hands out for port-0 binds (Linux:
 * 32768–60999), so a port picked here cannot be taken by another program's port-0 bind between
 * this pick and the child's own bind (picking with a port-0 bind left that window open).
 */
const AUTO_PORTS = { from: 20_000, to: 32_000 } as const;

/** A port in AUTO_PORTS that binds right now and was not picked before. */
async function pickPort(picked: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = AUTO_PORTS.from + Math.floor(Math.random() * (AUTO_PORTS.to - AUTO_PORTS.from));
    if (picked.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '0.0.0.0', () => probe.close(() => resolve(true)));
    });
    if (free) {
      picked.add(port);
      return port;
    }
  }
  // A machine this crowded: fall back to whatever the OS gives.
  return freePort();
}

async function plan(replicas: Replicas, autoPorts: boolean, env: Env): Promise<Planned[]> {
  const planned: Planned[] = [];
  const picked = new Set<number>();
  let metricsPort = METRICS_BASE_PORT;
  for (const service of ORDER) {
    for (let i = 0; i < replicas[service]; i += 1) {
      const base = service === 'edge' ? Number(env.PORT ?? DEFAULT_PORTS.edge) : DEFAULT_PORTS[service];
      // Every process, the edges too, serves /metrics on a port of its own.
      const metrics = autoPorts ? await pickPort(picked) : metricsPort++;
      planned.push({
        name: `${service}-${i + 1}`,
        service,
        port: autoPorts && !(service === 'edge' && i === 0) ? await pickPort(picked) : base + 10 * i,
        ...(metrics ? { metricsPort: metrics } : {}),
      });
    }
  }
  return planned;
}

/** A grpc-js target for every replica of a service: the client balances over them round-robin. */
function target(planned: readonly Planned[], service: ServiceName): string {
  const ports = planned.filter((p) => p.service === service).map((p) => `127.0.0.1:${p.port}`);
  const [only] = ports;
  return ports.length === 1 && only ? only : `ipv4:${ports.join(',')}`;
}

/** `--separate` without NATS_URL. */
export class MissingNatsError extends Error {
  override readonly name = 'MissingNatsError';
  constructor() {
    super('separate processes exchange events over NATS, and NATS_URL is not set');
  }
}

/** A child that ended before it listened, with what it said about why (its `gateway: …` line). */
export class ChildStartError extends Error {
  override readonly name = 'ChildStartError';
  constructor(
    readonly process: string,
    readonly reason: string | undefined,
    readonly hint: string | undefined,
    exit: string,
  ) {
    super(`${process} could not start${reason ? `: ${reason}` : ` (exited with ${exit})`}`);
  }
}

/** `gateway: <what> (<what to do>)` → its two parts. */
function parseFailureLine(line: string): { reason: string; hint: string | undefined } | undefined {
  const match = /^gateway: (.*?)(?: \(([^()]*)\))?$/.exec(line.trim());
  return match?.[1] ? { reason: match[1], hint: match[2] } : undefined;
}

export async function startProcesses(options: ProcessesOptions): Promise<RunningProcesses> {
  const { env, logger, replicas } = options;
  if (!env.NATS_URL) throw new MissingNatsError();
  const { output } = options;
  const planned = await plan(replicas, options.autoPorts, env);
  const addresses = {
    ACCOUNTING_ADDRESS: target(planned, 'accounting'),
    CHAT_ADDRESS: target(planned, 'chat'),
    VIDEO_ADDRESS: target(planned, 'video'),
  };
  const root = dataDir(env);
  // One sealing key for every chat process (their data folders differ): the operator's, or one
  // generated once into the root folder, so any chat replica opens what another sealed.
  const sealing = { GATEWAY_ENCRYPTION_KEY: loadEncryptionKey(env, root).toString('base64') };
  const children = new Map<string, ChildProcess>();
  let stopping = false;
  let stopped: () => void = () => undefined;
  const exited = new Promise<void>((r) => {
    stopped = r;
  });
  // However this process ends (a second signal exits at once), its children end with it.
  process.once('exit', () => {
    for (const child of children.values()) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });

  const stopAll = async (): Promise<void> => {
    stopping = true;
    // Edges first: they stop taking calls while the services behind them finish theirs.
    for (const service of ['edge', 'chat', 'video', 'accounting'] as const) {
      const group = [...children.entries()].filter(([name]) => name.startsWith(`${service}-`)).map(([, child]) => child);
      for (const child of group) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.all(
        group.map((child) =>
          child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((r) => child.once('exit', r)),
        ),
      );
    }
    stopped();
  };

  const failures = new Map<string, number>();
  const restart = (p: Planned, why: Record<string, unknown>): void => {
    const failed = failures.get(p.name) ?? 0;
    failures.set(p.name, failed + 1);
    const delayMs = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** failed);
    logger.error({ process: p.name, ...why, delayMs }, 'a gateway process exited; restarting it');
    setTimeout(() => {
      if (stopping) return;
      launch(p).catch((error: unknown) => {
        if (stopping) return;
        restart(p, { err: error });
      });
    }, delayMs).unref();
  };

  const launch = (p: Planned): Promise<void> => {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...env,
      ...addresses,
      GATEWAY_DATA_DIR: join(root, p.name),
      // Every log line of the child names it (createLogger's `process` field).
      GATEWAY_PROCESS: p.name,
      ...(p.service === 'chat' ? sealing : {}),
      ...(p.service === 'edge'
        ? { PORT: String(p.port), HOST: env.HOST ?? '127.0.0.1', METRICS_PORT: String(p.metricsPort ?? 0) }
        : { GRPC_HOST: '127.0.0.1', GRPC_PORT: String(p.port), METRICS_PORT: String(p.metricsPort ?? 0) }),
    };
    // The IPC channel carries the child's "ready" (log lines may be off at its LOG_LEVEL), and its
    // closing tells a child that the supervisor is gone.
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, BIN, 'start', '--service', p.service], {
      env: childEnv,
      stdio: ['ignore', output ? 'pipe' : 'inherit', 'pipe', 'ipc'],
    });
    children.set(p.name, child);
    return new Promise((ready, reject) => {
      let seen = false;
      // A child's one-line failure (`gateway: … (…)`) becomes the supervisor's own before it
      // listens; anything else it writes to stderr passes through.
      let failure: { reason: string; hint: string | undefined } | undefined;
      if (child.stderr) {
        createInterface({ input: child.stderr }).on('line', (line) => {
          const parsed = seen ? undefined : parseFailureLine(line);
          if (parsed) failure = parsed;
          else process.stderr.write(`${line}\n`);
        });
      }
      const startedAt = Date.now();
      child.once('exit', (code, signal) => {
        // Its stderr may still hold the line saying why: read to the end first.
        if (!seen)
          child.once('close', () =>
            reject(new ChildStartError(p.name, failure?.reason, failure?.hint, String(code ?? signal ?? 'an error'))),
          );
        else if (!stopping) {
          // A process that ran a while starts a fresh count; one that keeps dying waits longer each time.
          if (Date.now() - startedAt > STABLE_AFTER_MS) failures.set(p.name, 0);
          restart(p, { code, signal });
        }
      });
      if (output && child.stdout) createInterface({ input: child.stdout }).on('line', output);
      child.on('message', (message: { type?: unknown }) => {
        if (!seen && message?.type === 'ready') {
          seen = true;
          ready();
        }
      });
    });
  };

  try {
    for (const service of ORDER) await Promise.all(planned.filter((p) => p.service === service).map(launch));
  } catch (error) {
    await stopAll();
    throw error;
  }
  const host = env.HOST === undefined || env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST;
  return {
    edges: planned.filter((p) => p.service === 'edge').map((p) => `http://${host}:${p.port}`),
    metrics: Object.fromEntries(
      planned.map((p) => [p.name, `http://${p.service === 'edge' ? host : '127.0.0.1'}:${p.metricsPort ?? 0}/metrics`]),
    ),
    children,
    exited,
    close: stopAll,
  };
}
