import { createHash, timingSafeEqual } from 'node:crypto';
import { type BudgetPeriod, budgetPeriodFromWire, budgetPeriodToWire, videoJobStatus } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { nanosToUsd, usdToNanos } from '@gateway/pricing';
import type {
  AuditContext,
  Balance__Output,
  DeploymentHealth__Output,
  Key__Output,
  KeyPatch,
  Team__Output,
  TeamFields,
} from '@gateway/protos';
import { trafficSummary } from '@gateway/telemetry';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import type { CallContext } from '@gateway/grpc';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import Type, { type Static, type TOptional, type TSchema } from '@gateway/typebox';
import { refuseSeveralAuthorizations } from '../auth.js';
import type { Downstream } from '../downstream.js';
import { ROUTE_DEADLINES_MS, routeCall } from '../deadlines.js';
import { page, spendLogFilters, spendLogQuery, spendLogRow } from './spend-logs.js';

// The admin API (docs/admin-api.md): keys, teams, spend and the audit list. The edge checks
// shapes and turns HTTP into accounting's calls; accounting owns every rule and records each
// change with the route and request id that made it.

export interface AdminRoutesOptions {
  downstream: Downstream;
  adminToken: string;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Equal-length digests compared in constant time, so neither length nor content leaks. */
export function tokenMatches(presented: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(presented), expected);
}

const seconds = (ms: number): number | null => (ms ? Math.floor(ms / 1000) : null);

const utcDayOf = (date: Date): string => date.toISOString().slice(0, 10);

const DEPLOYMENT_STATES: Readonly<Record<string, string>> = {
  DEPLOYMENT_STATE_COOLING_DOWN: 'cooling_down',
  DEPLOYMENT_STATE_RATE_LIMITED: 'rate_limited',
};

function deploymentView(kind: 'chat' | 'video', deployment: DeploymentHealth__Output) {
  return {
    kind,
    group: deployment.group,
    deployment: `${deployment.provider}/${deployment.model}#${deployment.index}`,
    index: deployment.index,
    provider: deployment.provider,
    model: deployment.model,
    state: DEPLOYMENT_STATES[deployment.state] ?? 'healthy',
    consecutive_failures: deployment.consecutive_failures,
    until: seconds(deployment.until_ms),
    errors_5m: deployment.recent_errors,
    last_error: deployment.last_error_kind
      ? { kind: deployment.last_error_kind, at: Math.floor(deployment.last_error_at_ms / 1000) }
      : null,
  };
}

function balanceView(balance: Balance__Output | null) {
  return {
    period_start: seconds(balance?.period_start_ms ?? 0),
    resets_at: seconds(balance?.resets_at_ms ?? 0),
    spent_usd: nanosToUsd(balance?.spent_nano_usd ?? 0),
    lifetime_spent_usd: nanosToUsd(balance?.lifetime_spent_nano_usd ?? 0),
    reserved_usd: nanosToUsd(balance?.reserved_nano_usd ?? 0),
  };
}

export function adminKeyView(key: Key__Output) {
  const balance = balanceView(key.balance);
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    hint: key.hint,
    models: key.models,
    team_id: key.team_id || null,
    metadata: key.metadata,
    budget_usd: nanosToUsd(key.budget_nano_usd),
    budget_period: budgetPeriodFromWire(key.budget_period),
    period_start: balance.period_start,
    resets_at: balance.resets_at,
    spent_usd: balance.spent_usd,
    lifetime_spent_usd: balance.lifetime_spent_usd,
    reserved_usd: balance.reserved_usd,
    rpm: key.rpm || null,
    tpm: key.tpm || null,
    created_at: Math.floor(key.created_at_ms / 1000),
    expires_at: seconds(key.expires_at_ms),
    revoked_at: seconds(key.revoked_at_ms),
    rotated_at: seconds(key.rotated_at_ms),
    previous_secret_expires_at: seconds(key.previous_secret_expires_at_ms),
  };
}

export function adminTeamView(team: Team__Output) {
  const balance = balanceView(team.balance);
  return {
    id: team.id,
    object: 'team',
    name: team.name,
    models: team.models,
    metadata: team.metadata,
    budget_usd: team.has_budget ? nanosToUsd(team.budget_nano_usd) : null,
    budget_period: budgetPeriodFromWire(team.budget_period),
    period_start: balance.period_start,
    resets_at: balance.resets_at,
    spent_usd: balance.spent_usd,
    lifetime_spent_usd: balance.lifetime_spent_usd,
    reserved_usd: balance.reserved_usd,
    rpm: team.rpm || null,
    tpm: team.tpm || null,
    created_at: Math.floor(team.created_at_ms / 1000),
  };
}

const ADMIN_BODY_LIMIT = 64 * 1024;
// `strict: false`: TypeBox marks its schemas with keywords of its own, which ajv may ignore.
const strictBodies = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false });
const coercingParams = new Ajv({ coerceTypes: 'array', removeAdditional: false, useDefaults: true, strict: false });

// Shapes only; accounting judges meaning (known groups, existing teams, times ahead).
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Models = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000 });
const Budget = Type.Number({ minimum: 0, maximum: 1_000_000_000 });
const Rpm = Type.Integer({ minimum: 1, maximum: 10_000_000 });
const Tpm = Type.Integer({ minimum: 1, maximum: 2_000_000_000 });
/**
 * `null` or the schema's type, as one JSON Schema type list: with a union (anyOf) Fastify's type
 * coercion would turn `null` into 0 or "" (and 0 into null) to fit some branch.
 */
function nullable<S extends { type: string }>(schema: S) {
  return Type.Unsafe<Static<S> | null>({ ...schema, type: [schema.type, 'null'] });
}
/** The same fields, each optional. */
function optional<F extends Record<string, TSchema>>(fields: F): { [K in keyof F]: TOptional<F[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Type.Optional(schema)])) as {
    [K in keyof F]: TOptional<F[K]>;
  };
}
const Period = Type.Unsafe<BudgetPeriod>({ type: ['string', 'null'], enum: ['daily', 'weekly', 'monthly', null] });
/** Unix seconds, up to the year 9999. */
const UnixSeconds = Type.Integer({ minimum: 1, maximum: 253_402_300_799 });
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Metadata = Type.Record(
  Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:/-]+$' }),
  Type.String({ maxLength: 512 }),
  {
    maxProperties: 50,
  },
);

/** Every field of a key an admin sets; `null` clears the ones that can be absent. */
const KeyFields = {
  name: Name,
  models: Models,
  budget_usd: Budget,
  rpm: nullable(Rpm),
  tpm: nullable(Tpm),
  budget_period: Period,
  expires_at: nullable(UnixSeconds),
  team_id: nullable(Id),
  metadata: Metadata,
};
const { name: _name, models: _models, budget_usd: _budget, ...OptionalKeyFields } = KeyFields;

const CreateKeyBody = Type.Object(
  { name: Name, models: Models, budget_usd: Budget, ...optional(OptionalKeyFields) },
  { additionalProperties: false },
);
const PatchKeyBody = Type.Object(optional(KeyFields), { additionalProperties: false });

const RotateBody = Type.Object(
  { grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800 })) },
  { additionalProperties: false },
);

/** Every field of a team; only `name` is needed to create one. */
const TeamFieldsSchema = {
  name: Name,
  models: Models,
  budget_usd: nullable(Budget),
  budget_period: Period,
  rpm: nullable(Rpm),
  tpm: nullable(Tpm),
  metadata: Metadata,
};
const { name: _teamName, ...OptionalTeamFields } = TeamFieldsSchema;
const CreateTeamBody = Type.Object({ name: Name, ...optional(OptionalTeamFields) }, { additionalProperties: false });
const PatchTeamBody = Type.Object(optional(TeamFieldsSchema), { additionalProperties: false });

const IdParams = Type.Object({ id: Id });

const Cursor = Type.String({ minLength: 1, maxLength: 400 });
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  after: Type.Optional(Type.String({ maxLength: 100 })),
});

const SpendLogsQuery = Type.Object(
  { key_id: Type.Optional(Id), team_id: Type.Optional(Id), ...spendLogFilters },
  { additionalProperties: false },
);

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const DailyQuery = Type.Object(
  {
    key_id: Type.Optional(Id),
    team_id: Type.Optional(Id),
    group: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
  },
  { additionalProperties: false },
);

const TopQuery = Type.Object(
  {
    by: Type.Optional(Type.Union([Type.Literal('key'), Type.Literal('team')])),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

const VIDEO_STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
const VideosQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(VIDEO_STATUSES.map((status) => Type.Literal(status)))),
    key_id: Type.Optional(Id),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    after: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/** Routes that take no query: an unknown parameter is a mistake worth saying. */
const NoQuery = Type.Object({}, { additionalProperties: false });

const AuditQuery = Type.Object(
  { target_id: Type.Optional(Id), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })), after: Type.Optional(Cursor) },
  { additionalProperties: false },
);

/** Who made a change, as the audit list records it: the route template and the request id. */
function auditOf(request: FastifyRequest): AuditContext {
  const template = (request.routeOptions.url ?? request.url).replace(/:([A-Za-z_]+)/g, '{$1}');
  return { route: `${request.method} ${template}`, request_id: request.id };
}

/** A PATCH body's fields as accounting's patch and the mask naming them. */
function keyPatch(body: Record<string, unknown>): { patch: KeyPatch; mask: string[] } {
  const patch: KeyPatch = {};
  const mask: string[] = [];
  const set = <F extends keyof KeyPatch>(field: F, value: KeyPatch[F]) => {
    patch[field] = value;
    mask.push(field);
  };
  if (body.name !== undefined) set('name', body.name as string);
  if (body.models !== undefined) set('models', body.models as string[]);
  if (body.budget_usd !== undefined) set('budget_nano_usd', usdToNanos(body.budget_usd as number));
  if (body.rpm !== undefined) set('rpm', (body.rpm as number | null) ?? 0);
  if (body.tpm !== undefined) set('tpm', (body.tpm as number | null) ?? 0);
  if (body.budget_period !== undefined) set('budget_period', budgetPeriodToWire(body.budget_period as BudgetPeriod));
  if (body.expires_at !== undefined) set('expires_at_ms', ((body.expires_at as number | null) ?? 0) * 1000);
  if (body.team_id !== undefined) set('team_id', (body.team_id as string | null) ?? '');
  if (body.metadata !== undefined) set('metadata', body.metadata as Record<string, string>);
  return { patch, mask };
}

function teamFields(body: Record<string, unknown>): { fields: TeamFields; mask: string[] } {
  const fields: TeamFields = {};
  const mask: string[] = [];
  if (body.name !== undefined) {
    fields.name = body.name as string;
    mask.push('name');
  }
  if (body.models !== undefined) {
    fields.models = body.models as string[];
    mask.push('models');
  }
  if (body.budget_usd !== undefined) {
    const budget = body.budget_usd as number | null;
    fields.has_budget = budget !== null;
    fields.budget_nano_usd = budget === null ? 0 : usdToNanos(budget);
    mask.push('budget_nano_usd');
  }
  if (body.budget_period !== undefined) {
    fields.budget_period = budgetPeriodToWire(body.budget_period as BudgetPeriod);
    mask.push('budget_period');
  }
  if (body.rpm !== undefined) {
    fields.rpm = (body.rpm as number | null) ?? 0;
    mask.push('rpm');
  }
  if (body.tpm !== undefined) {
    fields.tpm = (body.tpm as number | null) ?? 0;
    mask.push('tpm');
  }
  if (body.metadata !== undefined) {
    fields.metadata = body.metadata as Record<string, string>;
    mask.push('metadata');
  }
  return { fields, mask };
}

/**
 * The admin API, registered only when ADMIN_TOKEN is set and guarded by it alone: no Host
 * header, address or other request detail grants access.
 */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (fastify, { downstream, adminToken }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const expected = digest(adminToken);
  const { accounting } = downstream;

  // Bodies are taken as typed, never coerced ("25" is not 25, true is not 1, "a" is not ["a"]);
  // query strings and path parameters, which are text by nature, still are.
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strictBodies : coercingParams).compile(schema));
  // An admin body is a few fields: no route takes more than 64 KiB.
  app.addHook('onRoute', (route) => {
    route.bodyLimit = Math.min(route.bodyLimit ?? ADMIN_BODY_LIMIT, ADMIN_BODY_LIMIT);
  });

  // Every call an admin request makes: within 5 s of its arrival, cancelled if its caller leaves.
  const calls = new WeakMap<FastifyRequest, CallContext>();
  const adminCall = (request: FastifyRequest): CallContext => calls.get(request) ?? {};
  app.addHook('onRequest', async (request, reply) => {
    refuseSeveralAuthorizations(request.raw.rawHeaders);
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !tokenMatches(match[1], expected)) throw new GatewayError('invalid_admin_token');
    calls.set(request, routeCall(request, reply, ROUTE_DEADLINES_MS.admin));
  });

  // Keys.

  app.post('/admin/v1/keys', { schema: { body: CreateKeyBody } }, async (request, reply) => {
    const body = request.body;
    const { key, secret } = await accounting.createKey(
      {
        name: body.name,
        models: body.models,
        budgetNanoUsd: usdToNanos(body.budget_usd),
        rpm: body.rpm ?? 0,
        tpm: body.tpm ?? 0,
        budgetPeriod: body.budget_period ?? null,
        expiresAtMs: (body.expires_at ?? 0) * 1000,
        teamId: body.team_id ?? '',
        metadata: body.metadata ?? {},
      },
      { ...adminCall(request), audit: auditOf(request) },
    );
    return reply.code(201).send({ ...adminKeyView(key), key: secret });
  });

  app.get('/admin/v1/keys', { schema: { querystring: ListQuery } }, async (request) => {
    const result = await accounting.listKeys(request.query.limit ?? 100, request.query.after ?? '', adminCall(request));
    return page(result.keys.map(adminKeyView), result.nextPageToken);
  });

  app.get('/admin/v1/keys/:id', { schema: { params: IdParams } }, async (request) => {
    const { key } = await accounting.getKey(request.params.id, adminCall(request));
    return adminKeyView(key);
  });

  app.patch('/admin/v1/keys/:id', { schema: { params: IdParams, body: PatchKeyBody } }, async (request) => {
    const { patch, mask } = keyPatch(request.body ?? {});
    const key = await accounting.updateKey(request.params.id, patch, mask, { ...adminCall(request), audit: auditOf(request) });
    return adminKeyView(key);
  });

  app.post(
    '/admin/v1/keys/:id/rotate',
    {
      schema: { params: IdParams, body: RotateBody },
      // The body is optional: none means no grace.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const grace = request.body?.grace_seconds ?? 0;
      const { key, secret } = await accounting.rotateKey(request.params.id, grace, { ...adminCall(request), audit: auditOf(request) });
      return { ...adminKeyView(key), key: secret };
    },
  );

  app.delete('/admin/v1/keys/:id', { schema: { params: IdParams } }, async (request) => {
    const key = await accounting.revokeKey(request.params.id, { ...adminCall(request), retries: 0, audit: auditOf(request) });
    return adminKeyView(key);
  });

  // Teams.

  app.post('/admin/v1/teams', { schema: { body: CreateTeamBody } }, async (request, reply) => {
    const { fields } = teamFields(request.body);
    const team = await accounting.createTeam(fields, { ...adminCall(request), audit: auditOf(request) });
    return reply.code(201).send(adminTeamView(team));
  });

  app.get('/admin/v1/teams', { schema: { querystring: ListQuery } }, async (request) => {
    const result = await accounting.listTeams(request.query.limit ?? 100, request.query.after ?? '', adminCall(request));
    return page(result.teams.map(adminTeamView), result.nextPageToken);
  });

  app.get('/admin/v1/teams/:id', { schema: { params: IdParams } }, async (request) =>
    adminTeamView(await accounting.getTeam(request.params.id, adminCall(request))),
  );

  app.patch('/admin/v1/teams/:id', { schema: { params: IdParams, body: PatchTeamBody } }, async (request) => {
    const { fields, mask } = teamFields(request.body ?? {});
    const team = await accounting.updateTeam(request.params.id, fields, mask, { ...adminCall(request), audit: auditOf(request) });
    return adminTeamView(team);
  });

  app.delete('/admin/v1/teams/:id', { schema: { params: IdParams } }, async (request) => {
    await accounting.deleteTeam(request.params.id, { ...adminCall(request), audit: auditOf(request) });
    return { id: request.params.id, object: 'team.deleted', deleted: true };
  });

  // Spend and audit.

  app.get('/admin/v1/spend/logs', { schema: { querystring: SpendLogsQuery } }, async (request) => {
    const q = request.query;
    const result = await accounting.listSpendLogs({ keyId: q.key_id, teamId: q.team_id, ...spendLogQuery(q) }, adminCall(request));
    return page(result.entries.map(spendLogRow), result.nextPageToken);
  });

  app.get('/admin/v1/spend/daily', { schema: { querystring: DailyQuery } }, async (request) => {
    const q = request.query;
    const days = await accounting.getDailySpend(
      { keyId: q.key_id, teamId: q.team_id, group: q.group, fromDay: q.from, toDay: q.to },
      adminCall(request),
    );
    return {
      object: 'list',
      data: days.map((d) => ({
        date: d.day,
        group: d.group,
        spend_usd: nanosToUsd(d.spent_nano_usd),
        requests: d.requests,
        cached_tokens: d.cached_tokens,
        cache_saved_usd: nanosToUsd(d.cache_saved_nano_usd),
      })),
    };
  });

  app.get('/admin/v1/spend/top', { schema: { querystring: TopQuery } }, async (request) => {
    const q = request.query;
    const spenders = await accounting.getTopSpenders(
      { by: q.by ?? 'key', fromDay: q.from, toDay: q.to, limit: q.limit ?? 10 },
      adminCall(request),
    );
    return {
      object: 'list',
      data: spenders.map((s) => ({ id: s.id, name: s.name || null, spend_usd: nanosToUsd(s.spent_nano_usd), requests: s.requests })),
    };
  });

  // The dashboard's overview, video jobs and upstream health.

  app.get('/admin/v1/overview', { schema: { querystring: NoQuery } }, async (request) => {
    const now = new Date();
    const today = utcDayOf(now);
    const monthStart = `${today.slice(0, 8)}01`;
    const [traffic, days] = await Promise.all([
      trafficSummary(),
      accounting.getDailySpend({ fromDay: monthStart, toDay: today }, adminCall(request)),
    ]);
    let month = 0;
    let monthSaved = 0;
    let todaySpend = 0;
    let requestsToday = 0;
    let cachedToday = 0;
    for (const day of days) {
      month += day.spent_nano_usd;
      monthSaved += day.cache_saved_nano_usd;
      if (day.day !== today) continue;
      todaySpend += day.spent_nano_usd;
      requestsToday += day.requests;
      cachedToday += day.cached_tokens;
    }
    const ms = (seconds: number | null) => (seconds === null ? null : Math.round(seconds * 1e6) / 1e3);
    return {
      object: 'overview',
      since: Math.floor(performance.timeOrigin / 1000),
      requests: {
        total: traffic.requests,
        errors: traffic.errors,
        client_errors: traffic.clientErrors,
        error_rate: traffic.requests === 0 ? 0 : traffic.errors / traffic.requests,
      },
      latency_ms: { p50: ms(traffic.latency.p50), p95: ms(traffic.latency.p95) },
      overhead_ms: { p50: ms(traffic.overhead.p50), p95: ms(traffic.overhead.p95) },
      spend: {
        today_usd: nanosToUsd(todaySpend),
        month_usd: nanosToUsd(month),
        requests_today: requestsToday,
        cached_tokens_today: cachedToday,
        cache_saved_month_usd: nanosToUsd(monthSaved),
      },
    };
  });

  app.get('/admin/v1/videos', { schema: { querystring: VideosQuery } }, async (request) => {
    const q = request.query;
    const result = await downstream.video.listAllVideos(
      { status: q.status, keyId: q.key_id ?? '', pageSize: q.limit ?? 100, after: q.after ?? '' },
      adminCall(request),
    );
    const data = result.jobs.map(({ job, key_id }) => ({
      id: job.id,
      object: 'video',
      key_id,
      model: job.model,
      status: videoJobStatus(job.status),
      progress: job.progress,
      seconds: job.seconds,
      created_at: Math.floor(job.created_at_ms / 1000),
      completed_at: seconds(job.completed_at_ms),
      error: job.error_code ? { code: job.error_code, message: job.error_message } : null,
    }));
    const last = data[data.length - 1];
    return { object: 'list', data, has_more: result.hasMore, next_after: result.hasMore && last ? last.id : null, counts: result.counts };
  });

  app.get('/admin/v1/upstreams', { schema: { querystring: NoQuery } }, async (request) => {
    const context = adminCall(request);
    // Each service answers for its own routers; one that is down leaves its part out, named.
    const answers = await Promise.allSettled([downstream.chat.upstreamHealth(context), downstream.video.upstreamHealth(context)]);
    const kinds = ['chat', 'video'] as const;
    const data = answers.flatMap((answer, i) =>
      answer.status === 'fulfilled' ? answer.value.map((deployment) => deploymentView(kinds[i] ?? 'chat', deployment)) : [],
    );
    const unavailable = kinds.filter((_, i) => answers[i]?.status === 'rejected');
    return { object: 'list', data, unavailable };
  });

  app.get('/admin/v1/audit', { schema: { querystring: AuditQuery } }, async (request) => {
    const q = request.query;
    const result = await accounting.listAuditEvents(
      { targetId: q.target_id, pageSize: q.limit ?? 100, pageToken: q.after },
      adminCall(request),
    );
    const data = result.events.map((e) => ({
      id: e.id,
      object: 'audit_event',
      created_at: Math.floor(e.created_at_ms / 1000),
      action: e.action,
      target_id: e.target_id,
      route: e.route,
      request_id: e.request_id,
      changes: JSON.parse(e.changes_json || '{}') as unknown,
    }));
    return page(data, result.nextPageToken);
  });
};
