import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './wait.js';

// Starts the gateway as operators run it in separate processes (`gateway start --separate
// [args] --auto-ports`, each service its own process) and resolves once the supervisor's
// 'gateway ready' line names the edges and every process's pid. Every JSON line the supervisor
// writes (its own and its children's) is kept in `lines`, for as long as it runs.

const BIN = resolve(import.meta.dirname, '../../packages/cli/bin/gateway.js');

/** One JSON log line of the supervisor's standard output. */
export interface SeparateLine {
  process?: string;
  msg?: string;
  pids?: Record<string, number>;
  edges?: string[];
  [field: string]: unknown;
}

export interface SeparateGateway {
  supervisor: ChildProcess;
  /** The edges' URLs, as the ready line names them; the first listens on PORT. */
  edges: string[];
  /** Each process's pid by name ('edge-1', 'chat-1', 'video-1', 'accounting-1'...), from the ready line. */
  pids: Record<string, number>;
  lines: SeparateLine[];
  /** Continues any process a test stopped (SIGSTOP), then stops the supervisor (SIGTERM) and waits for it. */
  stop(): Promise<void>;
}

export interface SeparateOptions {
  /** Arguments after `start --separate`, e.g. ['--replicas', 'edge=2,chat=2']. */
  args?: string[];
  /** Added to process.env; HOST defaults to 127.0.0.1 and PORT to a free port (--auto-ports keeps the first edge on PORT). */
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export async function startSeparate({ args = [], env, timeoutMs = 60_000 }: SeparateOptions): Promise<SeparateGateway> {
  const supervisor = spawn(process.execPath, [BIN, 'start', '--separate', ...args, '--auto-ports'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: SeparateLine[] = [];
  let pids: Record<string, number> = {};
  const stop = async () => {
    for (const pid of Object.values(pids)) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone already
      }
    }
    if (supervisor.exitCode === null && supervisor.signalCode === null) {
      const exited = new Promise((r) => supervisor.once('exit', r));
      supervisor.kill('SIGTERM');
      await exited;
    }
  };
  try {
    const edges = await new Promise<string[]>((ready, reject) => {
      const timer = setTimeout(() => reject(new Error('the processes did not start in time')), timeoutMs);
      supervisor.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the supervisor exited with ${code}`));
      });
      const { stdout } = supervisor;
      if (!stdout) throw new Error('the supervisor was started without a pipe');
      createInterface({ input: stdout }).on('line', (line) => {
        let parsed: SeparateLine;
        try {
          parsed = JSON.parse(line) as SeparateLine;
        } catch {
          return;
        }
        lines.push(parsed);
        if (parsed.msg === 'gateway ready' && parsed.edges?.[0]) {
          clearTimeout(timer);
          pids = parsed.pids ?? {};
          ready(parsed.edges);
        }
      });
    });
    return { supervisor, edges, pids, lines, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
