// What /proc says about a process: its CPU time, sleeps, memory and I/O system calls. Starting
// and stopping processes is bench/lib/start.mjs's.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process has used so far.
 * @param {number} pid
 * @returns {number}
 */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * How often a process's threads have gone to sleep so far (voluntary context switches, summed
 * over its threads): each is a wake-up to come, which on a virtual machine whose idle vCPUs halt
 * costs 0.1–0.2 ms of CPU after a sleep of 10 ms (bench/history/2026-11-28-results-diary.md, "What a wake-up costs").
 * @param {number} pid
 * @returns {number}
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

/**
 * Resident set size in MiB.
 * @param {number} pid
 * @returns {number}
 */
export function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * Peak resident set size in MiB since the process started (VmHWM).
 * @param {number} pid
 * @returns {number}
 */
export function peakRssMiB(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * The file and socket system calls a process has made so far, and the bytes they moved
 * (/proc/PID/io: `syscr` reads, `syscw` writes, `rchar`, `wchar`), counting every thread.
 * @param {number} pid
 * @returns {{ reads: number, writes: number, readBytes: number, writtenBytes: number }}
 */
export function ioCounts(pid) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const line of readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n')) {
    const [name, value] = line.split(': ');
    counts[name ?? ''] = Number(value);
  }
  return { reads: counts.syscr ?? NaN, writes: counts.syscw ?? NaN, readBytes: counts.rchar ?? NaN, writtenBytes: counts.wchar ?? NaN };
}
