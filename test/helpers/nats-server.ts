import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A real nats-server with JetStream for one test run: its own free port and storage folder,
// restartable on the same port and folder (to test outages), stopped by the test.

const BINARY = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p)) ?? 'nats-server';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export class NatsServer {
  #child: ChildProcess | undefined;

  private constructor(readonly port: number, readonly storeDir: string) {}

  static async start(): Promise<NatsServer> {
    const server = new NatsServer(await freePort(), await mkdtemp(join(tmpdir(), 'gateway-nats-')));
    await server.restart();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and storage, resolving once it accepts connections. */
  async restart(): Promise<void> {
    const child = spawn(BINARY, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${output}`)), 10_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Server is ready')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited with ${code}:\n${output}`));
      });
    });
  }

  /** Stops the server (the storage folder stays, for a restart). */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    child.removeAllListeners('exit');
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.storeDir, { recursive: true, force: true });
  }
}
