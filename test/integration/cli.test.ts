import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { checkHealth, createHealthClient } from '@gateway/grpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/wait.js';

// The `gateway` command as an operator runs it: the compiled CLI (npm test builds first) in a
// child process, started on its embedded defaults and stopped with SIGTERM.

const bin = fileURLToPath(new URL('../../packages/cli/bin/gateway.js', import.meta.url));
const run = promisify(execFile);
const ADMIN_TOKEN = 'cli-admin-token-0123456789';

interface Started {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  ready: Record<string, unknown>;
}

/** Spawns the CLI and waits for the log line whose msg matches. */

/** The metrics server starts right after the gRPC one: a few tries. */
async function eventuallyFetch(url: string): Promise<string> {
  for (let i = 0; ; i += 1) {
    try {
      return await (await fetch(url)).text();
    } catch (error) {
      if (i > 40) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function spawnCli(args: string[], env: Record<string, string>, cwd: string, readyMsg: RegExp): Promise<Started> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in time:\n${lines.join('\n')}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${lines.join('\n')}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (typeof parsed.msg === 'string' && readyMsg.test(parsed.msg)) {
        clearTimeout(timer);
        resolve({ child, lines, ready: parsed });
      }
    });
  });
}

function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.removeAllListeners('exit');
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('gateway start', () => {
  it('runs on its embedded defaults, manages keys through the admin API and stops cleanly on SIGTERM', async () => {
    const env = { PORT: '0', GATEWAY_DATA_DIR: join(dir, 'data'), ADMIN_TOKEN, DEEPSEEK_API_KEY: 'x' };
    const { child, lines, ready } = await spawnCli(['start'], env, dir, /^gateway ready$/);
    try {
      expect(lines.join('\n')).toContain('using the shipped example configuration');
      const url = ready.listening as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/health/readiness`)).status).toBe(200);

      const cliEnv = { ...process.env, GATEWAY_URL: url, ADMIN_TOKEN };
      const created = JSON.parse(
        (
          await run(process.execPath, [bin, 'keys', 'create', '--name', 'cli', '--models', 'flash,gamma-v4-pro', '--budget', '25'], {
            env: cliEnv,
          })
        ).stdout,
      ) as { id: string; key: string; models: string[] };
      expect(created.models).toEqual(['gamma-flash', 'gamma-v4-pro']);
      const models = (await (await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } })).json()) as {
        data: { id: string }[];
      };
      expect(models.data.map((m) => m.id)).toEqual(['gamma-flash', 'gamma-v4-pro']);

      const listed = JSON.parse((await run(process.execPath, [bin, 'keys', 'list'], { env: cliEnv })).stdout) as { id: string }[];
      expect(listed.map((k) => k.id)).toContain(created.id);
      const revoked = JSON.parse((await run(process.execPath, [bin, 'keys', 'revoke', created.id], { env: cliEnv })).stdout) as {
        revoked_at: number | null;
      };
      expect(revoked.revoked_at).toEqual(expect.any(Number));
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(401);

      const refused = await run(process.execPath, [bin, 'keys', 'list'], { env: { ...cliEnv, ADMIN_TOKEN: 'wrong' } }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('invalid_admin_token') });
      expect(lines.join('\n')).not.toContain(created.key);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it('runs one service alone with grpc.health.v1', async () => {
    const metricsPort = await freePort();
    const { child, ready } = await spawnCli(
      ['start', '--service', 'chat'],
      { GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', METRICS_PORT: String(metricsPort) },
      dir,
      /^chat listening$/,
    );
    const health = createHealthClient(`127.0.0.1:${String(ready.port)}`);
    try {
      expect(await checkHealth(health)).toBe('SERVING');
      expect(await checkHealth(health, 'gateway.chat.v1.ChatService')).toBe('SERVING');
      expect(await checkHealth(health, 'liveness')).toBe('SERVING');
      const metrics = await eventuallyFetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics).toContain('gateway_grpc_server_handled_total');
    } finally {
      health.close();
      expect(await stop(child)).toBe(0);
    }
  });

  it('lists every configuration error and exits 1', async () => {
    const bad = join(dir, 'bad.yaml');
    await (await import('node:fs/promises')).writeFile(bad, 'groups:\n  - id: x\n    mode: chat\n    price: {}\n    deployments: []\n');
    const result = await run(process.execPath, [bin, 'start'], { env: { ...process.env, GATEWAY_CONFIG: bad } }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(result).toMatchObject({ code: 1 });
    const stderr = (result as { stderr: string }).stderr;
    expect(stderr).toContain('invalid configuration in');
    expect(stderr).toContain('groups[0].deployments: must not have fewer than 1 items');
  });
});
