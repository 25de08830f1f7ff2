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
    const metricsPort = await freePort();
    const env = { PORT: '0', METRICS_PORT: String(metricsPort), GATEWAY_DATA_DIR: join(dir, 'data'), ADMIN_TOKEN, DEEPSEEK_API_KEY: 'x' };
    const { child, lines, ready } = await spawnCli(['start'], env, dir, /^gateway ready$/);
    try {
      expect(lines.join('\n')).toContain('using the shipped example configuration');
      // Each group this environment cannot serve is named with the variable it lacks; the ready line counts the served ones.
      const warnings = lines.map((l) => JSON.parse(l) as { level?: string; group?: string; unset?: string[] }).filter((l) => l.group);
      expect(warnings.map((w) => [w.level, w.group, w.unset])).toEqual([
        ['warn', 'alpha-h3', ['MINIMAX_API_KEY']],
        ['warn', 'alpha-h3-max', ['MINIMAX_API_KEY']],
        ['warn', 'beta-dance', ['ARK_API_KEY']],
      ]);
      expect(ready).toMatchObject({ groups: 4, configuredGroups: 7 });
      const url = ready.listening as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${url}/health/readiness`)).status).toBe(200);
      // Metrics on their own port, every service's; not on the public one.
      expect(ready.metrics).toBe(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(await (await fetch(ready.metrics as string)).text()).toContain('gateway_grpc_server_handled_total');
      expect((await fetch(`${url}/metrics`)).status).toBe(404);

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

      // The rest of a key's life, and teams, spend and audit, through the same CLI.
      const cli = async <T>(...args: string[]) => JSON.parse((await run(process.execPath, [bin, ...args], { env: cliEnv })).stdout) as T;
      const team = await cli<{ id: string }>('teams', 'create', '--name', 'cli-team', '--budget', '100', '--period', 'monthly');
      const updated = await cli<{ budget_usd: number; team_id: string; budget_period: string; metadata: Record<string, string> }>(
        'keys',
        'update',
        created.id,
        '--budget',
        '30',
        '--team',
        team.id,
        '--period',
        'weekly',
        '--meta',
        'owner=cli',
      );
      expect(updated).toMatchObject({ budget_usd: 30, team_id: team.id, budget_period: 'weekly', metadata: { owner: 'cli' } });
      const rotated = await cli<{ key: string; previous_secret_expires_at: number }>('keys', 'rotate', created.id, '--grace', '60');
      expect(rotated.previous_secret_expires_at).toEqual(expect.any(Number));
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${rotated.key}` } })).status).toBe(200);
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(200);
      expect(await cli<{ id: string }[]>('teams', 'list')).toEqual([expect.objectContaining({ id: team.id, name: 'cli-team' })]);
      expect(await cli<{ data: unknown[] }>('spend', 'logs', '--key', created.id)).toMatchObject({ object: 'list', data: [] });
      expect(await cli<{ data: unknown[] }>('spend', 'daily', '--team', team.id)).toMatchObject({ object: 'list', data: [] });
      const audit = await cli<{ data: { action: string }[] }>('audit', '--target', created.id);
      expect(audit.data.map((e) => e.action)).toEqual(['key.rotated', 'key.updated', 'key.created']);
      const usage = await run(process.execPath, [bin, 'keys', 'update', created.id], { env: cliEnv }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(usage).toMatchObject({ code: 2, stderr: expect.stringMatching(/^gateway: keys update needs at least one option/) });
      const revoked = JSON.parse((await run(process.execPath, [bin, 'keys', 'revoke', created.id], { env: cliEnv })).stdout) as {
        revoked_at: number | null;
      };
      expect(revoked.revoked_at).toEqual(expect.any(Number));
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(401);
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${rotated.key}` } })).status).toBe(401);

      const refused = await run(process.execPath, [bin, 'keys', 'list'], { env: { ...cliEnv, ADMIN_TOKEN: 'wrong' } }).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(refused).toMatchObject({
        code: 1,
        stderr: 'gateway: Invalid admin token. (set ADMIN_TOKEN to the token the gateway was started with)\n',
      });
      expect(lines.join('\n')).not.toContain(created.key);
      expect(lines.join('\n')).not.toContain(rotated.key);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    // About fifteen CLI processes in a row: seconds each on a loaded two-core machine.
  }, 60_000);

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

  it('checks a configuration and says what this environment serves of it', async () => {
    const example = fileURLToPath(new URL('../../gateway.example.yaml', import.meta.url));
    const bare = await run(process.execPath, [bin, 'config', 'check', example], { env: { PATH: process.env.PATH ?? '' } });
    expect(bare.stdout).toContain('valid, 7 groups, 2 served here');
    expect(bare.stdout).toMatch(/served {6}demo-chat \(chat\)/);
    expect(bare.stdout).toMatch(/served {6}demo-video \(video\)/);
    expect(bare.stdout).toMatch(/not served {2}gamma-flash \(chat\): set DEEPSEEK_API_KEY/);
    const withKey = await run(process.execPath, [bin, 'config', 'check', example], {
      env: { PATH: process.env.PATH ?? '', DEEPSEEK_API_KEY: 'x' },
    });
    expect(withKey.stdout).toContain('valid, 7 groups, 4 served here');
    expect(withKey.stdout).toMatch(/served {6}gamma-flash \(chat\)/);
    const bad = join(dir, 'check-bad.yaml');
    await (await import('node:fs/promises')).writeFile(bad, 'groups:\n  - id: x\n    mode: chat\n    price: {}\n    deployments: []\n');
    const invalid = await run(process.execPath, [bin, 'config', 'check', bad]).catch((e: { code: number; stderr: string }) => e);
    expect(invalid).toMatchObject({ code: 1, stderr: expect.stringContaining('groups[0].deployments') });
    const missing = await run(process.execPath, [bin, 'config', 'check', join(dir, 'nope.yaml')]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/^gateway: cannot read .*nope\.yaml \(ENOENT\)/) });
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
