// A nats-server with JetStream for the benchmarks' separate-process runs (the Debian package
// `nats-server`), on a free loopback port, its data in `dir`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with {url, child} once the server is ready. */
export async function startNats(dir) {
  const binary = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
  if (!binary) throw new Error('separate mode needs nats-server (apt-get install nats-server)');
  const port = await freePort();
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir, `nats-${port}`)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${output}`)), 10_000);
    child.stderr.on('data', (d) => {
      output += d;
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: `nats://127.0.0.1:${port}`, child };
}
