import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './wait.js';

// A real nats-server with JetStream for one test run: its own free port and storage folder,
// restartable on the same port and folder (to test outages), stopped by the test. The Debian
// package's binary when it is installed (CI installs it); else, with a Docker engine, the
// testcontainers NATS module (there a restart may move the port, so outage tests need the binary).

const BINARY = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));

interface NatsContainer {
  getHost(): string;
  getMappedPort(port: number): number;
  restart(): Promise<void>;
  stop(): Promise<unknown>;
}

export class NatsServer {
  #child: ChildProcess | undefined;
  #container: NatsContainer | undefined;

  private constructor(
    private portNumber: number,
    readonly storeDir: string,
  ) {}

  static async start(): Promise<NatsServer> {
    const server = new NatsServer(await freePort(), await mkdtemp(join(tmpdir(), 'gateway-nats-')));
    if (!BINARY) {
      const { NatsContainer } = await import('@testcontainers/nats');
      server.#container = await new NatsContainer('nats:2.10').withArg('-js', '').start();
      server.portNumber = server.#container.getMappedPort(4222);
      return server;
    }
    await server.restart();
    return server;
  }

  get port(): number {
    return this.portNumber;
  }

  get url(): string {
    return this.#container ? `nats://${this.#container.getHost()}:${this.portNumber}` : `nats://127.0.0.1:${this.portNumber}`;
  }

  /** Starts (again) on the same port and storage, resolving once it accepts connections. */
  async restart(): Promise<void> {
    if (this.#container) {
      await this.#container.restart();
      this.portNumber = this.#container.getMappedPort(4222);
      return;
    }
    if (!BINARY) throw new Error('nats-server is not installed (apt-get install nats-server)');
    const child = spawn(BINARY, ['-a', '127.0.0.1', '-p', String(this.portNumber), '-js', '-sd', this.storeDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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

  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as a hung process does. */
  pause(): void {
    if (!this.#child || this.#child.exitCode !== null) throw new Error('only a nats-server binary this helper started can be paused');
    this.#child.kill('SIGSTOP');
  }

  /** Lets a paused server run again (SIGCONT). */
  resume(): void {
    this.#child?.kill('SIGCONT');
  }

  /** Stops the server (the storage folder stays, for a restart). */
  async stop(): Promise<void> {
    if (this.#container) {
      await this.#container.stop();
      return;
    }
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    child.removeAllListeners('exit');
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      // A paused server would not act on SIGTERM until it runs again.
      child.kill('SIGCONT');
      child.kill('SIGTERM');
    });
  }

  async destroy(): Promise<void> {
    await this.stop();
    await rm(this.storeDir, { recursive: true, force: true });
  }
}
