// Child processes for the benchmark, and what /proc says about their CPU time and memory.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const TICKS_PER_SECOND = 100;

/**
 * Spawns `node args…` (the running Node, or the binary `node` names) and resolves with the child
 * and the first stdout line matching `ready`.
 */
export function start(args, { env = {}, ready = () => true, name = args[0], timeoutMs = 30_000, node = process.execPath } = {}) {
  const child = spawn(node, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.label = name;
  let errText = '';
  child.stderr.on('data', (d) => {
    // The last of it is enough to say why a process did not start.
    errText = (errText + d).slice(-20_000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready:\n${errText}`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${errText}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const value = ready(line);
      if (value) {
        clearTimeout(timer);
        resolve({ child, value });
      }
    });
  });
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * How often a process's threads have gone to sleep so far (voluntary context switches, summed
 * over its threads): each is a wake-up to come, which on a virtual machine whose idle vCPUs halt
 * costs 0.1–0.2 ms of CPU after a sleep of 10 ms (bench/RESULTS.md, "What a wake-up costs").
 */
export function sleeps(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const match = /^voluntary_ctxt_switches:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8'));
      total += match ? Number(match[1]) : 0;
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total;
}

/** Resident set size in MiB. */
export function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Peak resident set size in MiB since the process started (VmHWM). */
export function peakRssMiB(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * The file and socket system calls a process has made so far, and the bytes they moved
 * (/proc/PID/io: `syscr` reads, `syscw` writes, `rchar`, `wchar`), counting every thread.
 */
export function ioCounts(pid) {
  const counts = {};
  for (const line of readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n')) {
    const [name, value] = line.split(': ');
    counts[name] = Number(value);
  }
  return { reads: counts.syscr, writes: counts.syscw, readBytes: counts.rchar, writtenBytes: counts.wchar };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once every child has exited. */
export function stopAndWait(children, graceMs = 10_000) {
  return Promise.all(
    children.map((child) => {
      child.removeAllListeners('exit');
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }),
  );
}

export function stopAll(children) {
  for (const child of children) {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
}

/**
 * The gateway CLI and its Node flags, as its start command runs it (the flags on the first
 * line of packages/cli/bin/gateway.js): spawn `node ...gatewayCommand(), 'start'`.
 */
export function gatewayCommand(root) {
  const { cli, rest } = startLine(root);
  return [...rest.split(/\s+/).filter((flag) => flag.startsWith('--')), cli];
}

/**
 * The environment the start command sets for itself (the `NAME=VALUE`s before `node` on that
 * first line, e.g. MALLOC_ARENA_MAX): spread into the env of the process `gatewayCommand` starts.
 */
export function gatewayEnv(root) {
  return Object.fromEntries(
    startLine(root)
      .assignments.split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** The CLI's path and its first line (`#!/usr/bin/env -S [NAME=VALUE ...] node FLAGS`), split. */
function startLine(root) {
  const cli = `${root.replace(/\/$/, '')}/packages/cli/bin/gateway.js`;
  const shebang = readFileSync(cli, 'utf8').split('\n', 1)[0] ?? '';
  const [, assignments = '', rest = ''] = /^#!\S*env -S ((?:\w+=\S*\s+)*)node\b(.*)$/.exec(shebang) ?? [];
  return { cli, assignments, rest };
}
