import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsServer } from '../helpers/nats-server.js';
import { freePort } from '../helpers/wait.js';

// The CLI's failures as an operator meets them: each one line on stderr,
// `gateway: <what went wrong> (<what to do>)`, with the documented exit code (1 failed, 2 wrong
// usage), and no stack. And `npm start` stops the gateway it started when it gets SIGTERM.

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/cli/bin/gateway.js');
const ONE_LINE = /^gateway: .+ \(.+\)$/;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function gateway(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', GATEWAY_DATA_DIR: join(dir, 'data'), METRICS_PORT: '0', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway ${args.join(' ')} did not end:\n${stderr}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Exactly one line on stderr, in the one-line form. */
function oneLine(ran: Ran): string {
  const lines = ran.stderr.split('\n').filter(Boolean);
  expect(lines, ran.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(ONE_LINE);
  expect(ran.stderr).not.toMatch(/\n\s+at /);
  return lines[0] as string;
}

function holdPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ port: typeof address === 'object' && address ? address.port : 0, server });
    });
  });
}

let dir: string;
let taken: { port: number; server: Server };
const quiet = { LOG_LEVEL: 'error', HOST: '127.0.0.1' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-cli-errors-'));
  taken = await holdPort();
});
afterAll(async () => {
  taken.server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a CLI failure is one line with what to do, and the documented exit code', () => {
  it.each([
    [['start', '--bogus'], /start: Unknown option '--bogus' \(see gateway start --help\)/],
    [['start', 'extra'], /start: Unexpected argument 'extra'/],
    [['start', '--auto-ports'], /--auto-ports go with --separate/],
    [['start', '--service', 'bogus'], /unknown service "bogus"/],
    [['start', '--separate', '--replicas', 'chat=0'], /--replicas: chat needs a whole number/],
    [['nope'], /unknown command "nope"; the commands are start, config, keys/],
    [['keys', 'list', '--bogus'], /keys list: Unknown option '--bogus' \(see gateway keys --help\)/],
    [['keys', 'frobnicate'], /unknown keys command "frobnicate"/],
    [['config', 'check', '--bogus'], /config: unknown option '--bogus'/],
  ])('wrong usage: gateway %j → exit 2', async (args, message) => {
    const ran = await gateway(args, { ADMIN_TOKEN: 'x' });
    expect(ran.code).toBe(2);
    expect(oneLine(ran)).toMatch(message);
  });

  it('a configuration file that is missing, or invalid (config check lists every problem on stdout)', async () => {
    const missing = await gateway(['start'], { ...quiet, GATEWAY_CONFIG: join(dir, 'nope.yaml') });
    expect(missing.code).toBe(1);
    expect(oneLine(missing)).toMatch(/cannot read .*nope\.yaml \(ENOENT\) \(point GATEWAY_CONFIG at a readable YAML file/);

    const bad = join(dir, 'bad.yaml');
    await writeFile(bad, 'groups:\n  - id: x\n  - id: y\n');
    const started = await gateway(['start'], { ...quiet, GATEWAY_CONFIG: bad });
    expect(started.code).toBe(1);
    expect(oneLine(started)).toMatch(
      /invalid configuration in .*bad\.yaml: groups\[0\]: .*, and 1 more problem \(gateway config check .*bad\.yaml lists every problem\)/,
    );
    // A provider no folder implements: a configuration error at start and in config check, not a crash.
    const typo = join(dir, 'typo.yaml');
    await writeFile(
      typo,
      'groups:\n  - id: x\n    mode: chat\n    max_input_tokens: 10\n    max_output_tokens: 10\n    price: { input_per_mtok: 1, output_per_mtok: 1 }\n    deployments: [{ provider: opnai, model: m, api_base: "http://127.0.0.1:1", api_key_env: K }]\n',
    );
    const typoStart = await gateway(['start'], { ...quiet, GATEWAY_CONFIG: typo, PORT: '0' });
    expect(typoStart.code).toBe(1);
    expect(oneLine(typoStart)).toMatch(
      /groups\[0\]\.deployments\[0\]\.provider: unknown chat provider "opnai" \(known: openai, deepseek, demo\)/,
    );
    const typoCheck = await gateway(['config', 'check', typo]);
    expect(typoCheck.code).toBe(1);
    expect(typoCheck.stdout).toContain('unknown chat provider "opnai"');

    const checked = await gateway(['config', 'check', bad]);
    expect(checked.code).toBe(1);
    oneLine(checked);
    expect(checked.stdout).toContain('groups[0]');
    expect(checked.stdout).toContain('groups[1]');
  });

  it.each([
    ['PORT', ['start'], (port: number) => ({ PORT: String(port) })],
    ['METRICS_PORT', ['start'], (port: number) => ({ PORT: '0', METRICS_PORT: String(port) })],
    ['PORT', ['start', '--service', 'edge'], (port: number) => ({ PORT: String(port) })],
    ['GRPC_PORT', ['start', '--service', 'chat'], (port: number) => ({ GRPC_PORT: String(port), GRPC_HOST: '127.0.0.1' })],
  ])('a port in use names the variable that sets it (%s, gateway %j)', async (variable, args, env) => {
    const ran = await gateway(args as string[], { ...quiet, ...env(taken.port) });
    expect(ran.code).toBe(1);
    expect(oneLine(ran)).toBe(`gateway: port ${taken.port} is in use (set ${variable} to a free port, or stop what uses it)`);
  });

  it('separate processes: NATS_URL missing, and an edge port in use with the --auto-ports hint', async () => {
    const noNats = await gateway(['start', '--separate'], quiet);
    expect(noNats.code).toBe(1);
    expect(oneLine(noNats)).toMatch(/NATS_URL is not set \(start nats-server -js and set NATS_URL/);

    const nats = await NatsServer.start();
    try {
      const ran = await gateway(
        ['start', '--separate', '--auto-ports'],
        { ...quiet, NATS_URL: nats.url, PORT: String(taken.port) },
        60_000,
      );
      expect(ran.code).toBe(1);
      expect(oneLine(ran)).toBe(
        `gateway: edge-1 could not start: port ${taken.port} is in use (set PORT to a free port, or stop what uses it, or run with --auto-ports)`,
      );
    } finally {
      await nats.stop();
    }
  }, 90_000);

  it('the admin API out of reach, a missing token, a bad LOG_LEVEL', async () => {
    const port = await freePort();
    const unreachable = await gateway(['keys', 'list'], { ADMIN_TOKEN: 'x', GATEWAY_URL: `http://127.0.0.1:${port}` });
    expect(unreachable.code).toBe(1);
    expect(oneLine(unreachable)).toBe(
      `gateway: cannot reach the gateway at http://127.0.0.1:${port}: ECONNREFUSED (is the gateway running? set GATEWAY_URL to where it listens)`,
    );
    // An unreachable NATS at start: a warn line per attempt on stdout, then one line and exit 1.
    const natsPort = await freePort();
    const nats = await gateway(['start'], {
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      PORT: '0',
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      NATS_CONNECT_TIMEOUT_SECONDS: '2',
    });
    expect(nats.code).toBe(1);
    expect(oneLine(nats)).toMatch(new RegExp(`cannot reach NATS at nats://127\\.0\\.0\\.1:${natsPort} after \\d+ s \\(start nats-server`));
    expect(nats.stdout).toMatch(/NATS unreachable; retrying in 1 s/);

    const noToken = await gateway(['keys', 'list']);
    expect(noToken.code).toBe(2);
    expect(oneLine(noToken)).toMatch(/ADMIN_TOKEN is not set/);
    const level = await gateway(['start'], { LOG_LEVEL: 'loud', PORT: '0' });
    expect(level.code).toBe(2);
    expect(oneLine(level)).toMatch(/LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, not "loud"/);
  });

  it.each([['start'], ['config'], ['keys'], ['teams'], ['spend'], ['audit']])(
    'gateway %s --help prints its usage and exits 0',
    async (command) => {
      const ran = await gateway([command, '--help']);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toContain(`gateway ${command}`);
      expect(ran.stdout).toMatch(/Exit codes:\s+0 done/);
      expect(ran.stderr).toBe('');
    },
  );
});

describe('npm start', () => {
  it('stops the gateway it started when it gets SIGTERM: no process is left behind', async () => {
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: { ...process.env, PORT: '0', METRICS_PORT: '0', ADMIN_TOKEN: 'x', GATEWAY_DATA_DIR: join(dir, 'npm-data'), LOG_FORMAT: 'json' },
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    npm.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start was not ready in time:\n${output}`)), 90_000);
      const check = setInterval(() => {
        if (output.includes('"gateway ready"')) {
          clearTimeout(timer);
          clearInterval(check);
          resolve();
        }
      }, 50);
    });
    // The gateway is npm's own child (the start script execs it), not a grandchild behind a shell.
    const children = await new Promise<number[]>((resolve) => {
      const ps = spawn('ps', ['-o', 'pid=', '--ppid', String(npm.pid)]);
      let text = '';
      ps.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      ps.once('close', () =>
        resolve(
          text
            .split('\n')
            .map(Number)
            .filter((pid) => pid > 0),
        ),
      );
    });
    expect(children.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    npm.kill('SIGTERM');
    await exited;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 10_000;
    while (children.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(children.filter(alive)).toEqual([]);
    expect(output).toContain('"shutting down"');
  }, 120_000);
});
