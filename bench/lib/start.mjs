// The one start-up library of the benchmarks: the bench upstreams, the yardstick and the naive
// chain, a nats-server, and the gateway (one process, or `--separate` over a nats-server of its
// own) of this checkout or of another built one. Every child started here is tracked, and
// stopped however the benchmark ends: on exit, on error, and on SIGINT, SIGTERM or SIGHUP
// (exiting 128 + the signal's number, unless the script listens for that signal itself); the
// scratch folders from `scratchDir` are removed after.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { json } from './config.mjs';

/** @typedef {import('node:child_process').ChildProcess} Child */

/** This checkout's root, with a trailing slash. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

// --- tracked children ------------------------------------------------------------------------

/** @type {Set<Child>} */
const children = new Set();
/** @type {string[]} */
const scratchDirs = [];
let cleanupInstalled = false;

/** Stops every tracked child and removes the scratch folders when the process ends, however it ends. */
function installCleanup() {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', () => {
    stopAll([...children]);
    for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });
  for (const [signal, code] of /** @type {const} */ ([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ])) {
    // A script with a handler of its own for the signal (its own way to clean up) keeps it.
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) process.exit(code);
    });
  }
}

/**
 * Stops `child` with the rest when the benchmark ends.
 * @template {Child} C
 * @param {C} child
 * @returns {C}
 */
export function track(child) {
  installCleanup();
  children.add(child);
  return child;
}

/**
 * No longer stops these with the rest (they were stopped already).
 * @param {Child[]} gone
 */
export function untrack(gone) {
  for (const child of gone) children.delete(child);
}

/** @returns {Child[]} the children tracked now */
export function tracked() {
  return [...children];
}

/**
 * A new folder under the system's temporary one, removed when the benchmark ends.
 * @param {string} prefix e.g. `gateway-bench-`
 * @returns {string}
 */
export function scratchDir(prefix) {
  installCleanup();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}

// --- processes -------------------------------------------------------------------------------

/**
 * @template T
 * @typedef {object} StartOptions
 * @property {Record<string, string>} [env] over process.env
 * @property {(line: string) => T | undefined | false | null | ''} [ready] ready at the first stdout line it gives a value for
 * @property {string} [name] for error messages
 * @property {number} [timeoutMs] 30 s unless given
 * @property {string} [node] the Node binary (the running one unless given)
 */

/**
 * Spawns `node args…` (the running Node, or the binary `node` names) and resolves with the child
 * and what `ready` made of the first stdout line it accepted. Not tracked: see `track`.
 * @template [T=true]
 * @param {string[]} args
 * @param {StartOptions<T>} [options]
 * @returns {Promise<{ child: import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>, value: T }>}
 */
export function start(args, { env = {}, ready, name = args[0] ?? 'node', timeoutMs = 30_000, node = process.execPath } = {}) {
  const accept = ready ?? (() => /** @type {T} */ (/** @type {unknown} */ (true)));
  const child = spawn(node, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errText = '';
  child.stderr.on('data', (d) => {
    // The last of it is enough to say why a process did not start.
    errText = (errText + d).slice(-20_000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready:\n${errText}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${errText}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const value = accept(line);
      if (value) {
        clearTimeout(timer);
        resolve({ child, value });
      }
    });
  });
}

/**
 * SIGTERM, then SIGKILL after `graceMs`; resolves once every child has exited.
 * @param {Child[]} list
 * @param {number} [graceMs]
 * @returns {Promise<void>}
 */
export async function stopAndWait(list, graceMs = 10_000) {
  await Promise.all(
    list.map((child) => {
      child.removeAllListeners('exit');
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
        child.kill('SIGTERM');
      });
    }),
  );
  untrack(list);
}

/**
 * SIGTERM to each, without waiting.
 * @param {Child[]} list
 */
export function stopAll(list) {
  for (const child of list) {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
}

/** @returns {Promise<number>} a loopback port free now */
export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

// --- upstreams, yardstick, naive chain -------------------------------------------------------

/**
 * The zero-latency OpenAI-protocol simulator and the one spacing its stream chunks
 * (bench/lib/upstream.mjs), in one process of their own on the running Node; tracked.
 * @param {{ env?: Record<string, string> }} [options] e.g. CHUNK_DELAY_MS, or a NODE_OPTIONS probe
 * @returns {Promise<{ fast: string, spaced: string, child: Child }>}
 */
export async function startUpstream({ env } = {}) {
  const { child, value } = await start([join(root, 'bench/lib/upstream.mjs')], {
    ready: (line) => /** @type {{ fast: string, spaced: string } | undefined} */ (json(line)),
    name: 'upstream',
    ...(env ? { env } : {}),
  });
  track(child);
  return { fast: value.fast, spaced: value.spaced, child };
}

/**
 * The ModelArk simulator serving clips of `clipBytes` (bench/lib/video-upstream.mjs); tracked.
 * @param {{ clipBytes?: string }} [options] CLIP_BYTES for it (empty: 1 GiB)
 * @returns {Promise<{ url: string, child: Child }>}
 */
export async function startVideoUpstream({ clipBytes = '' } = {}) {
  const { child, value } = await start([join(root, 'bench/lib/video-upstream.mjs')], {
    ready: (line) => /** @type {{ url: string } | undefined} */ (json(line)),
    name: 'video upstream',
    env: { CLIP_BYTES: clipBytes },
  });
  track(child);
  return { url: value.url, child };
}

/**
 * The yardstick (bench/lib/yardstick.mjs) in front of the two upstreams, on `node`; tracked.
 * /fast/... and /spaced/... go to them.
 * @param {{ fast: string, spaced: string }} urls
 * @param {{ node?: string }} [options]
 * @returns {Promise<{ url: string, child: Child }>}
 */
export async function startYardstick(urls, { node } = {}) {
  const { child, value } = await start([join(root, 'bench/lib/yardstick.mjs'), urls.fast, urls.spaced], {
    ready: (line) => /** @type {{ url: string } | undefined} */ (json(line)),
    name: 'yardstick',
    ...(node ? { node } : {}),
  });
  track(child);
  return { url: value.url, child };
}

/**
 * The naive chain (bench/lib/naive-chain.mjs: a Fastify front and a grpc-js service, two
 * processes) in front of the two upstreams, on `node`; tracked.
 * @param {{ fast: string, spaced: string }} urls
 * @param {{ node?: string }} [options]
 * @returns {Promise<{ url: string, servicePid: number, child: Child }>}
 */
export async function startNaiveChain(urls, { node } = {}) {
  const { child, value } = await start([join(root, 'bench/lib/naive-chain.mjs'), urls.fast, urls.spaced], {
    ready: (line) => /** @type {{ url: string, servicePid: number } | undefined} */ (json(line)),
    name: 'naive chain',
    ...(node ? { node } : {}),
  });
  track(child);
  return { url: value.url, servicePid: value.servicePid, child };
}

// --- nats-server -----------------------------------------------------------------------------

/**
 * @typedef {object} Nats
 * @property {string} url nats://127.0.0.1:PORT
 * @property {number} port
 * @property {Child} child
 * @property {() => Promise<void>} stop SIGTERM, and wait for it to exit
 */

/**
 * A nats-server with JetStream (the Debian package `nats-server`) on a loopback port, its data
 * in `dir`/nats-PORT unless `storeDir` names the folder; tracked. Resolves once it is ready.
 * @param {string} dir
 * @param {{ port?: number, storeDir?: string }} [options] a given port and folder, e.g. to restart one on its data
 * @returns {Promise<Nats>}
 */
export async function startNats(dir, { port, storeDir } = {}) {
  const binary =
    ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p)) ?? 'nats-server';
  const natsPort = port ?? (await freePort());
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', storeDir ?? join(dir, `nats-${natsPort}`)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${output}`)), 10_000);
    const onData = (/** @type {Buffer} */ d) => {
      output += d;
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        resolve(undefined);
      }
    };
    child.stderr.on('data', onData);
    child.stdout.on('data', onData);
    child.once('error', () => {
      clearTimeout(timer);
      reject(new Error('separate mode needs nats-server (apt-get install nats-server)'));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited ${code}: ${output}`));
    });
  });
  return { url: `nats://127.0.0.1:${natsPort}`, port: natsPort, child, stop: () => stopAndWait([child]) };
}

// --- the gateway -----------------------------------------------------------------------------

/**
 * The gateway CLI and its Node flags, as its start command runs it (the flags on the first
 * line of packages/cli/bin/gateway.js): spawn `node ...gatewayCommand(), 'start'`.
 * @param {string} checkout a checkout's root
 * @returns {string[]}
 */
export function gatewayCommand(checkout) {
  const { cli, rest } = startLine(checkout);
  return [...rest.split(/\s+/).filter((flag) => flag.startsWith('--')), cli];
}

/**
 * The environment the start command sets for itself (the `NAME=VALUE`s before `node` on that
 * first line, e.g. MALLOC_ARENA_MAX): spread into the env of the process `gatewayCommand` starts.
 * @param {string} checkout a checkout's root
 * @returns {Record<string, string>}
 */
export function gatewayEnv(checkout) {
  return Object.fromEntries(
    startLine(checkout)
      .assignments.split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/**
 * The CLI's path and its first line (`#!/usr/bin/env -S [NAME=VALUE ...] node FLAGS`), split.
 * @param {string} checkout
 * @returns {{ cli: string, assignments: string, rest: string }}
 */
function startLine(checkout) {
  const cli = `${checkout.replace(/\/$/, '')}/packages/cli/bin/gateway.js`;
  const shebang = readFileSync(cli, 'utf8').split('\n', 1)[0] ?? '';
  const [, assignments = '', rest = ''] = /^#!\S*env -S ((?:\w+=\S*\s+)*)node\b(.*)$/.exec(shebang) ?? [];
  return { cli, assignments, rest };
}

/**
 * @typedef {object} GatewayOptions
 * @property {'one' | 'separate'} mode `gateway start`, or `gateway start --separate --auto-ports` (the first edge on PORT)
 * @property {string} [checkout] the root of the built checkout whose gateway runs (this one unless given)
 * @property {Record<string, string>} env its environment, over the start command's own variables
 *   (gatewayEnv) and process.env; PORT is set here (0 for one process, a free port for the first
 *   edge), and for --separate NATS_URL too, unless `env` has it
 * @property {string} [node] the Node binary (the running one unless given)
 * @property {string[]} [nodeArgs] Node flags before the CLI's own, e.g. `--cpu-prof` (one process)
 * @property {string} [natsDir] --separate: the folder for its nats-server's data (a scratch folder unless given)
 * @property {string} [name] for error messages (`gateway`, `gateway (separate)` unless given)
 * @property {number} [timeoutMs] how long it may take to print `gateway ready` (30 s unless given)
 */

/**
 * @typedef {object} Gateway
 * @property {string} url the (first) edge's URL
 * @property {Record<string, number>} pids each process by name: `gateway` for one process; for
 *   --separate the supervisor's children by service (`edge`, `chat`, ..., the `-1` of the first
 *   replica dropped)
 * @property {any} ready the `gateway ready` line, parsed
 * @property {Child} child the process started (one process: the gateway; --separate: the supervisor)
 * @property {Nats} [nats] --separate: the nats-server started for it
 * @property {(graceMs?: number) => Promise<void>} stop the gateway, then its nats-server; resolves when they have exited
 */

/**
 * Starts the gateway one way or the other and resolves once it is ready; tracked.
 * @param {GatewayOptions} options
 * @returns {Promise<Gateway>}
 */
export async function startGateway({ mode, checkout = root, env, node, nodeArgs = [], natsDir, name, timeoutMs }) {
  const command = [...nodeArgs, ...gatewayCommand(checkout), 'start'];
  const common = { ...(node ? { node } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
  if (mode === 'one') {
    const g = await start(command, {
      ...common,
      env: { ...gatewayEnv(checkout), PORT: '0', ...env },
      name: name ?? 'gateway',
      ready: (line) => (json(line)?.msg === 'gateway ready' && json(line).listening ? json(line) : undefined),
    });
    track(g.child);
    return {
      url: g.value.listening,
      pids: { gateway: /** @type {number} */ (g.child.pid) },
      ready: g.value,
      child: g.child,
      stop: (graceMs) => stopAndWait([g.child], graceMs),
    };
  }
  // Separate processes as operators start them, with spend and key events over a nats-server of
  // the benchmark's own.
  const nats = env.NATS_URL ? undefined : await startNats(natsDir ?? scratchDir('gateway-nats-'));
  const s = await start([...command, '--separate', '--auto-ports'], {
    ...common,
    env: { ...gatewayEnv(checkout), PORT: String(await freePort()), ...(nats ? { NATS_URL: nats.url } : {}), ...env },
    name: name ?? 'gateway (separate)',
    ready: (line) => (json(line)?.msg === 'gateway ready' ? json(line) : undefined),
  });
  track(s.child);
  /** @type {Record<string, number>} */
  const started = s.value.pids;
  return {
    url: s.value.listening,
    pids: Object.fromEntries(Object.entries(started).map(([n, pid]) => [n.replace(/-1$/, ''), pid])),
    ready: s.value,
    child: s.child,
    ...(nats ? { nats } : {}),
    stop: async (graceMs) => {
      await stopAndWait([s.child], graceMs);
      await nats?.stop();
    },
  };
}

/**
 * @typedef {object} KeyOptions
 * @property {string} [name] `bench` unless given
 * @property {string[]} [models] `['*']` unless given
 * @property {number} [budgetUsd] 1,000,000 unless given
 */

/**
 * A key created through the admin API of the gateway at `url`.
 * @param {string} url
 * @param {string} adminToken
 * @param {KeyOptions} [options]
 * @returns {Promise<string>} the key's secret
 */
export async function createKey(url, adminToken, { name = 'bench', models = ['*'], budgetUsd = 1_000_000 } = {}) {
  const response = await fetch(`${url}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, models, budget_usd: budgetUsd }),
  });
  if (response.status !== 201) throw new Error(`key creation failed: ${response.status} ${await response.text()}`);
  return /** @type {{ key: string }} */ (await response.json()).key;
}
