// Child processes for the benchmark, and what /proc says about their CPU time and memory.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const TICKS_PER_SECOND = 100;

/** Spawns `node args…` and resolves with the child and the first stdout line matching `ready`. */
export function start(args, { env = {}, ready = () => true, name = args[0], timeoutMs = 30_000 } = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.label = name;
  let errText = '';
  child.stderr.on('data', (d) => {
    errText += d;
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

/** Resident set size in MiB. */
export function rssMiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

export function stopAll(children) {
  for (const child of children) {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
}
