import type { BudgetPeriod } from '@gateway/contracts';
import Type, { type Static, type TOptional, type TSchema } from '@gateway/typebox';
import { Ajv } from 'ajv';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { spendLogFilters } from '../spend-logs.js';

// The admin API's request shapes and their compilers. Shapes only; accounting judges meaning
// (known groups, existing teams, times ahead).

// Two instances, because coercion is an option of a whole Ajv instance, not of a schema: bodies
// are taken as typed, never coerced ("25" is not 25, true is not 1, "a" is not ["a"]); query
// strings and path parameters, which are text by nature, still are.
// `strict: false`: TypeBox marks its schemas with keywords of its own, which ajv may ignore.
const strictBodies = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true, strict: false });
const coercingParams = new Ajv({ coerceTypes: 'array', removeAdditional: false, useDefaults: true, strict: false });

/** The admin routes' validator compiler: bodies strict, query strings and path parameters coerced. */
export const compileAdminValidator: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strictBodies : coercingParams).compile(schema);

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
  /** Whether /v1/responses may store this key's responses (false: never, whatever `store` says). */
  store_responses: Type.Boolean(),
};
const { name: _name, models: _models, budget_usd: _budget, ...OptionalKeyFields } = KeyFields;

export const CreateKeyBody = Type.Object(
  { name: Name, models: Models, budget_usd: Budget, ...optional(OptionalKeyFields) },
  { additionalProperties: false },
);
export const PatchKeyBody = Type.Object(optional(KeyFields), { additionalProperties: false });

export const RotateBody = Type.Object(
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
export const CreateTeamBody = Type.Object({ name: Name, ...optional(OptionalTeamFields) }, { additionalProperties: false });
export const PatchTeamBody = Type.Object(optional(TeamFieldsSchema), { additionalProperties: false });

export const IdParams = Type.Object({ id: Id });

const Cursor = Type.String({ minLength: 1, maxLength: 400 });
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  after: Type.Optional(Type.String({ maxLength: 100 })),
});

export const SpendLogsQuery = Type.Object(
  { key_id: Type.Optional(Id), team_id: Type.Optional(Id), ...spendLogFilters },
  { additionalProperties: false },
);

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
export const DailyQuery = Type.Object(
  {
    key_id: Type.Optional(Id),
    team_id: Type.Optional(Id),
    group: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
  },
  { additionalProperties: false },
);

export const TopQuery = Type.Object(
  {
    by: Type.Optional(Type.Union([Type.Literal('key'), Type.Literal('team')])),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

const VIDEO_STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export const VideosQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(VIDEO_STATUSES.map((status) => Type.Literal(status)))),
    key_id: Type.Optional(Id),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    after: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/** Routes that take no query: an unknown parameter is a mistake worth saying. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const AuditQuery = Type.Object(
  { target_id: Type.Optional(Id), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })), after: Type.Optional(Cursor) },
  { additionalProperties: false },
);
