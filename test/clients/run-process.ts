import { spawn } from 'node:child_process';

// Runs a real client as a child process the way the client tests need: its own process group
// (so commands it started die with it), stdin closed, output collected, a hard timeout.

export interface ProcessRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

export async function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<ProcessRun> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let timedOut = false;
  const killTree = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killTree();
  }, options.timeoutMs);
  const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, sig) => resolve({ exitCode: code, signal: sig }));
  }).finally(() => {
    clearTimeout(timer);
    // Commands the client started (a shell tool's session, a background task) die with the group.
    killTree();
  });
  return { exitCode, signal, timedOut, stdout, stderr };
}
