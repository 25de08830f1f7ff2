import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

// Starts a real `gateway start` process (the one-process gateway) and resolves once its
// 'gateway ready' line names the edge's URL; the last lines it wrote are kept for failures.

const BIN = resolve(import.meta.dirname, '../../packages/cli/bin/gateway.js');

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  /** Its most recent output lines (stdout and stderr), for failure messages. */
  output: string[];
}

export async function spawnGateway(env: NodeJS.ProcessEnv, started: ChildProcess[], timeoutMs = 30_000): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const output: string[] = [];
  const keep = (line: string) => {
    output.push(line);
    if (output.length > 200) output.shift();
  };
  const { stdout, stderr } = child;
  if (!stdout || !stderr) throw new Error('the gateway was started without pipes');
  createInterface({ input: stderr }).on('line', keep);
  const url = await new Promise<string>((ready, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start in ${timeoutMs} ms:\n${output.join('\n')}`)), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited with ${code ?? signal} before it was ready:\n${output.join('\n')}`));
    });
    createInterface({ input: stdout }).on('line', (line) => {
      keep(line);
      try {
        const parsed = JSON.parse(line) as { msg?: string; listening?: string };
        if (parsed.msg === 'gateway ready' && parsed.listening) {
          clearTimeout(timer);
          ready(parsed.listening);
        }
      } catch {
        // Not a log line.
      }
    });
  });
  return { child, url, output };
}
