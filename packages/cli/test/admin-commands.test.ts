import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCommand, keysCommand, parseWhen, spendCommand, teamsCommand, UsageError } from '../src/admin-commands.js';

// What each admin command sends: a local HTTP server records method, path, query and body
// and answers like the admin API would (a page with no next one), so the commands are
// checked down to the request without a gateway. The end-to-end run is test/integration.

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  authorization: string | undefined;
}

let server: Server;
let url: string;
let requests: Recorded[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    request.on('end', () => {
      const parsed = new URL(request.url ?? '/', 'http://x');
      requests.push({
        method: request.method ?? '',
        path: parsed.pathname,
        query: Object.fromEntries(parsed.searchParams),
        body: text ? JSON.parse(text) : undefined,
        authorization: request.headers.authorization,
      });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'x' }], next_after: null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function send(run: typeof keysCommand, args: string[]): Promise<Recorded> {
  requests = [];
  const printed: unknown[] = [];
  await run(args, { target: () => ({ url, token: 't0ken' }), print: (value) => printed.push(value) });
  expect(printed).toHaveLength(1);
  expect(requests).toHaveLength(1);
  const [request] = requests;
  if (!request) throw new Error('no request');
  expect(request.authorization).toBe('Bearer t0ken');
  return request;
}

describe('keys commands', () => {
  it('create with every option', async () => {
    const request = await send(keysCommand, [
      'create',
      '--name',
      'ci',
      '--models',
      'flash, gamma-v4-pro',
      '--budget',
      '12.5',
      '--rpm',
      '60',
      '--tpm',
      '1000',
      '--period',
      'monthly',
      '--expires',
      '2026-12-31',
      '--team',
      'team_1',
      '--meta',
      'owner=ml',
      '--meta',
      'note=a=b',
    ]);
    expect(request).toMatchObject({ method: 'POST', path: '/admin/v1/keys' });
    expect(request.body).toEqual({
      name: 'ci',
      models: ['flash', 'gamma-v4-pro'],
      budget_usd: 12.5,
      rpm: 60,
      tpm: 1000,
      budget_period: 'monthly',
      expires_at: Date.parse('2026-12-31T00:00:00Z') / 1000,
      team_id: 'team_1',
      metadata: { owner: 'ml', note: 'a=b' },
    });
  });

  it('update only what is given, none as null, and clear metadata', async () => {
    const request = await send(keysCommand, [
      'update',
      'key_1',
      '--budget',
      '3',
      '--rpm',
      'none',
      '--team',
      'none',
      '--period',
      'none',
      '--clear-meta',
    ]);
    expect(request).toMatchObject({ method: 'PATCH', path: '/admin/v1/keys/key_1' });
    expect(request.body).toEqual({ budget_usd: 3, rpm: null, team_id: null, budget_period: null, metadata: {} });
  });

  it('rotate, get, revoke and list', async () => {
    expect(await send(keysCommand, ['rotate', 'key_1', '--grace', '3600'])).toMatchObject({
      method: 'POST',
      path: '/admin/v1/keys/key_1/rotate',
      body: { grace_seconds: 3600 },
    });
    expect((await send(keysCommand, ['rotate', 'key_1'])).body).toEqual({});
    expect(await send(keysCommand, ['get', 'key_1'])).toMatchObject({ method: 'GET', path: '/admin/v1/keys/key_1' });
    expect(await send(keysCommand, ['revoke', 'key_1'])).toMatchObject({ method: 'DELETE', path: '/admin/v1/keys/key_1' });
    expect(await send(keysCommand, ['list'])).toMatchObject({ method: 'GET', path: '/admin/v1/keys', query: { limit: '1000' } });
  });

  it('refuse bad options before any request', async () => {
    requests = [];
    const context = { target: () => ({ url, token: 't' }), print: () => undefined };
    const cases: [string[], RegExp][] = [
      [['create', '--name', 'x', '--models', '*'], /needs --name, --models and --budget/],
      [['create', '--name', 'x', '--models', '*', '--budget=-1'], /--budget must be a number/],
      [['create', '--name', 'x', '--models', '*', '--budget', '1', '--rpm', '0'], /--rpm must be a whole number/],
      [['create', '--name', 'x', '--models', '*', '--budget', '1', '--period', 'yearly'], /--period must be one of/],
      [['create', '--name', 'x', '--models', '*', '--budget', '1', '--meta', 'novalue'], /--meta takes name=value/],
      [['create', '--name', 'x', '--models', '*', '--budget', '1', '--expires', 'soon'], /--expires must be Unix seconds/],
      [['update', 'key_1'], /at least one option/],
      [['update'], /needs an id/],
      [['rotate', 'key_1', '--grace', '604801'], /--grace must be a whole number from 0 to 604800/],
      [['create', '--colour', 'red'], /Unknown option '--colour'/],
      [['frobnicate'], /unknown keys command/],
    ];
    for (const [args, message] of cases) {
      const error = await keysCommand(args, context).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
    expect(requests).toHaveLength(0);
  });
});

describe('teams, spend and audit commands', () => {
  it('create, update (none clears the budget) and delete teams', async () => {
    expect(
      await send(teamsCommand, ['create', '--name', 'research', '--models', 'g', '--budget', '500', '--period', 'monthly', '--tpm', '9']),
    ).toMatchObject({
      method: 'POST',
      path: '/admin/v1/teams',
      body: { name: 'research', models: ['g'], budget_usd: 500, budget_period: 'monthly', tpm: 9 },
    });
    expect(await send(teamsCommand, ['update', 'team_1', '--budget', 'none', '--rpm', '5'])).toMatchObject({
      method: 'PATCH',
      path: '/admin/v1/teams/team_1',
      body: { budget_usd: null, rpm: 5 },
    });
    expect(await send(teamsCommand, ['delete', 'team_1'])).toMatchObject({ method: 'DELETE', path: '/admin/v1/teams/team_1' });
    expect(await send(teamsCommand, ['get', 'team_1'])).toMatchObject({ method: 'GET', path: '/admin/v1/teams/team_1' });
    expect(await send(teamsCommand, ['list'])).toMatchObject({ path: '/admin/v1/teams' });
  });

  it('query spend logs, daily spend and the audit list', async () => {
    expect(
      await send(spendCommand, [
        'logs',
        '--key',
        'key_1',
        '--group',
        'g',
        '--from',
        '2026-11-01',
        '--to',
        '1800000000',
        '--limit',
        '50',
        '--after',
        'abc',
      ]),
    ).toMatchObject({
      path: '/admin/v1/spend/logs',
      query: {
        key_id: 'key_1',
        group: 'g',
        from: String(Date.parse('2026-11-01T00:00:00Z') / 1000),
        to: '1800000000',
        limit: '50',
        after: 'abc',
      },
    });
    expect(await send(spendCommand, ['daily', '--team', 'team_1', '--from', '2026-11-01', '--to', '2026-11-30'])).toMatchObject({
      path: '/admin/v1/spend/daily',
      query: { team_id: 'team_1', from: '2026-11-01', to: '2026-11-30' },
    });
    expect(await send(auditCommand, ['--target', 'key_1', '--limit', '5'])).toMatchObject({
      path: '/admin/v1/audit',
      query: { target_id: 'key_1', limit: '5' },
    });
    await expect(
      spendCommand(['daily', '--from', 'yesterday'], { target: () => ({ url, token: 't' }), print: () => undefined }),
    ).rejects.toThrow(/--from must be a day/);
  });

  it('read WHEN as Unix seconds or ISO dates and times', () => {
    expect(parseWhen('1800000000', 'x')).toBe(1_800_000_000);
    expect(parseWhen('2026-12-31T12:00:00Z', 'x')).toBe(Date.parse('2026-12-31T12:00:00Z') / 1000);
    expect(() => parseWhen('next week', 'x')).toThrow(UsageError);
  });
});
