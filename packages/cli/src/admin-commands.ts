import { parseArgs } from 'node:util';
import { adminRequest, type AdminTarget } from './admin-client.js';

// The admin API's routes as CLI commands (docs/admin-api.md): keys, teams, spend and audit.
// Each command checks its options before any request, so a typo fails at once with a one-line
// usage error; the answers are printed as the API gives them (JSON).

/** A mistake in the command line: exit 2 with its message. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface AdminCommandContext {
  /** Where and how to reach the admin API (read only when a request is made). */
  target: () => AdminTarget;
  print: (value: unknown) => void;
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

const PERIODS = ['daily', 'weekly', 'monthly'];
const MAX_GRACE_SECONDS = 604_800;

function parse(args: string[], options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>, command: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's own message can span lines and suggest `--`: one line is what an operator needs.
    throw new UsageError(`${command}: ${(error as Error).message.split('\n')[0]?.replace(/\. To specify.*$/, '.')}`);
  }
}

function str(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function usd(value: string, option: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`--${option} must be a number of USD >= 0`);
  return n;
}

function whole(value: string, option: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new UsageError(`--${option} must be a whole number from ${min} to ${max}`);
  return n;
}

/** `none` clears a field (JSON null); anything else goes through `parse`. */
function orNone<T>(value: string, parse: (v: string) => T): T | null {
  return value === 'none' ? null : parse(value);
}

/** Unix seconds, or an ISO date or date-time (UTC unless it says otherwise). */
export function parseWhen(value: string, option: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new UsageError(`--${option} must be Unix seconds or an ISO date such as 2026-12-31 or 2026-12-31T12:00:00Z`);
  return Math.floor(ms / 1000);
}

function period(value: string): string {
  if (!PERIODS.includes(value)) throw new UsageError(`--period must be one of ${PERIODS.join(', ')} or none`);
  return value;
}

function list(value: string): string[] {
  const items = value
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError('--models must name at least one group, or *');
  return items;
}

function metadata(entries: readonly (string | boolean)[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const entry of entries) {
    if (typeof entry !== 'string') continue;
    const at = entry.indexOf('=');
    if (at <= 0) throw new UsageError(`--meta takes name=value, not "${entry}"`);
    map[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return map;
}

function id(positionals: string[], command: string): string {
  const [first] = positionals;
  if (!first) throw new UsageError(`${command} needs an id`);
  return encodeURIComponent(first);
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

const KEY_FIELDS = {
  name: { type: 'string' },
  models: { type: 'string' },
  budget: { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  period: { type: 'string' },
  expires: { type: 'string' },
  team: { type: 'string' },
  meta: { type: 'string', multiple: true },
} as const;

/** The request body for the key options given; `none` clears where the API allows null. */
function keyBody(values: Values, forUpdate: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const name = str(values, 'name');
  const models = str(values, 'models');
  const budget = str(values, 'budget');
  const rpm = str(values, 'rpm');
  const tpm = str(values, 'tpm');
  const periodValue = str(values, 'period');
  const expires = str(values, 'expires');
  const team = str(values, 'team');
  const meta = values.meta;
  if (name !== undefined) body.name = name;
  if (models !== undefined) body.models = list(models);
  if (budget !== undefined) body.budget_usd = usd(budget, 'budget');
  // On creation there is nothing to clear: `none` is the same as leaving the option out.
  const clearable = <T>(value: string | undefined, field: string, parse: (v: string) => T) => {
    if (value === undefined) return;
    const parsed = orNone(value, parse);
    if (parsed !== null || forUpdate) body[field] = parsed;
  };
  clearable(rpm, 'rpm', (v) => whole(v, 'rpm', 1));
  clearable(tpm, 'tpm', (v) => whole(v, 'tpm', 1));
  clearable(periodValue, 'budget_period', period);
  clearable(expires, 'expires_at', (v) => parseWhen(v, 'expires'));
  clearable(team, 'team_id', (v) => v);
  if (Array.isArray(meta) && meta.length > 0) body.metadata = metadata(meta);
  if (forUpdate && values['clear-meta'] === true) body.metadata = {};
  return body;
}

async function allPages(context: AdminCommandContext, path: string): Promise<unknown[]> {
  const target = context.target();
  const all: unknown[] = [];
  let after: string | null = null;
  do {
    const page = (await adminRequest(target, 'GET', `${path}${query({ limit: 1000, after: after ?? undefined })}`)) as {
      data: unknown[];
      next_after: string | null;
    };
    all.push(...page.data);
    after = page.next_after;
  } while (after);
  return all;
}

export async function keysCommand(args: string[], context: AdminCommandContext): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const { values } = parse(rest, KEY_FIELDS, 'keys create');
      if (!values.name || !values.models || values.budget === undefined)
        throw new UsageError('keys create needs --name, --models and --budget');
      context.print(await adminRequest(context.target(), 'POST', '/admin/v1/keys', keyBody(values, false)));
      return;
    }
    case 'list':
      parse(rest, {}, 'keys list');
      context.print(await allPages(context, '/admin/v1/keys'));
      return;
    case 'get':
    case 'revoke': {
      const { positionals } = parse(rest, {}, `keys ${command}`);
      const path = `/admin/v1/keys/${id(positionals, `keys ${command}`)}`;
      context.print(await adminRequest(context.target(), command === 'get' ? 'GET' : 'DELETE', path));
      return;
    }
    case 'update': {
      const { values, positionals } = parse(rest, { ...KEY_FIELDS, 'clear-meta': { type: 'boolean' } }, 'keys update');
      const key = id(positionals, 'keys update');
      const body = keyBody(values, true);
      if (Object.keys(body).length === 0) throw new UsageError('keys update needs at least one option to change');
      context.print(await adminRequest(context.target(), 'PATCH', `/admin/v1/keys/${key}`, body));
      return;
    }
    case 'rotate': {
      const { values, positionals } = parse(rest, { grace: { type: 'string' } }, 'keys rotate');
      const key = id(positionals, 'keys rotate');
      const grace = str(values, 'grace');
      const body = grace === undefined ? {} : { grace_seconds: whole(grace, 'grace', 0, MAX_GRACE_SECONDS) };
      context.print(await adminRequest(context.target(), 'POST', `/admin/v1/keys/${key}/rotate`, body));
      return;
    }
    default:
      throw new UsageError(`unknown keys command "${command ?? ''}" (create, list, get, update, rotate, revoke)`);
  }
}

const TEAM_FIELDS = {
  name: { type: 'string' },
  models: { type: 'string' },
  budget: { type: 'string' },
  period: { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  meta: { type: 'string', multiple: true },
} as const;

function teamBody(values: Values, forUpdate: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const set = <T>(value: string | undefined, field: string, parse: (v: string) => T, clearable: boolean) => {
    if (value === undefined) return;
    const parsed = clearable ? orNone(value, parse) : parse(value);
    if (parsed !== null || forUpdate) body[field] = parsed;
  };
  set(str(values, 'name'), 'name', (v) => v, false);
  set(str(values, 'models'), 'models', list, false);
  set(str(values, 'budget'), 'budget_usd', (v) => usd(v, 'budget'), true);
  set(str(values, 'period'), 'budget_period', period, true);
  set(str(values, 'rpm'), 'rpm', (v) => whole(v, 'rpm', 1), true);
  set(str(values, 'tpm'), 'tpm', (v) => whole(v, 'tpm', 1), true);
  const meta = values.meta;
  if (Array.isArray(meta) && meta.length > 0) body.metadata = metadata(meta);
  return body;
}

export async function teamsCommand(args: string[], context: AdminCommandContext): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const { values } = parse(rest, TEAM_FIELDS, 'teams create');
      if (!values.name) throw new UsageError('teams create needs --name');
      context.print(await adminRequest(context.target(), 'POST', '/admin/v1/teams', teamBody(values, false)));
      return;
    }
    case 'list':
      parse(rest, {}, 'teams list');
      context.print(await allPages(context, '/admin/v1/teams'));
      return;
    case 'get':
    case 'delete': {
      const { positionals } = parse(rest, {}, `teams ${command}`);
      const path = `/admin/v1/teams/${id(positionals, `teams ${command}`)}`;
      context.print(await adminRequest(context.target(), command === 'get' ? 'GET' : 'DELETE', path));
      return;
    }
    case 'update': {
      const { values, positionals } = parse(rest, TEAM_FIELDS, 'teams update');
      const team = id(positionals, 'teams update');
      const body = teamBody(values, true);
      if (Object.keys(body).length === 0) throw new UsageError('teams update needs at least one option to change');
      context.print(await adminRequest(context.target(), 'PATCH', `/admin/v1/teams/${team}`, body));
      return;
    }
    default:
      throw new UsageError(`unknown teams command "${command ?? ''}" (create, list, get, update, delete)`);
  }
}

export async function spendCommand(args: string[], context: AdminCommandContext): Promise<void> {
  const [command, ...rest] = args;
  const filters = {
    key: { type: 'string' },
    team: { type: 'string' },
    group: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  } as const;
  switch (command) {
    case 'logs': {
      const { values } = parse(rest, { ...filters, limit: { type: 'string' }, after: { type: 'string' } }, 'spend logs');
      const from = str(values, 'from');
      const to = str(values, 'to');
      const limit = str(values, 'limit');
      const path = `/admin/v1/spend/logs${query({
        key_id: str(values, 'key'),
        team_id: str(values, 'team'),
        group: str(values, 'group'),
        from: from === undefined ? undefined : parseWhen(from, 'from'),
        to: to === undefined ? undefined : parseWhen(to, 'to'),
        limit: limit === undefined ? undefined : whole(limit, 'limit', 1, 1000),
        after: str(values, 'after'),
      })}`;
      context.print(await adminRequest(context.target(), 'GET', path));
      return;
    }
    case 'daily': {
      const { values } = parse(rest, filters, 'spend daily');
      for (const option of ['from', 'to']) {
        const day = str(values, option);
        if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new UsageError(`--${option} must be a day, YYYY-MM-DD`);
      }
      const path = `/admin/v1/spend/daily${query({
        key_id: str(values, 'key'),
        team_id: str(values, 'team'),
        group: str(values, 'group'),
        from: str(values, 'from'),
        to: str(values, 'to'),
      })}`;
      context.print(await adminRequest(context.target(), 'GET', path));
      return;
    }
    default:
      throw new UsageError(`unknown spend command "${command ?? ''}" (logs, daily)`);
  }
}

export async function auditCommand(args: string[], context: AdminCommandContext): Promise<void> {
  const { values } = parse(args, { target: { type: 'string' }, limit: { type: 'string' }, after: { type: 'string' } }, 'audit');
  const limit = str(values, 'limit');
  const path = `/admin/v1/audit${query({
    target_id: str(values, 'target'),
    limit: limit === undefined ? undefined : whole(limit, 'limit', 1, 1000),
    after: str(values, 'after'),
  })}`;
  context.print(await adminRequest(context.target(), 'GET', path));
}
