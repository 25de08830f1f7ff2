import { createHash, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '@gateway/errors';
import { nanosToUsd, usdToNanos } from '@gateway/pricing';
import type { Key__Output } from '@gateway/protos';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import type { Downstream } from '../downstream.js';
import { callContext } from '../telemetry.js';

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

export function adminKeyView(key: Key__Output, spentNanoUsd?: number) {
  return {
    id: key.id,
    object: 'api_key',
    name: key.name,
    hint: key.hint,
    models: key.models,
    budget_usd: nanosToUsd(key.budget_nano_usd),
    ...(spentNanoUsd === undefined ? {} : { spent_usd: nanosToUsd(spentNanoUsd) }),
    rpm: key.rpm || null,
    tpm: key.tpm || null,
    created_at: Math.floor(key.created_at_ms / 1000),
    revoked_at: key.revoked_at_ms ? Math.floor(key.revoked_at_ms / 1000) : null,
  };
}

const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    models: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 1000 }),
    budget_usd: Type.Number({ minimum: 0, maximum: 1_000_000_000 }),
    rpm: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
    tpm: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_000_000_000 })),
  },
  { additionalProperties: false },
);

const KeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  after: Type.Optional(Type.String({ maxLength: 100 })),
});

/**
 * The admin API, registered only when ADMIN_TOKEN is set and guarded by it alone: no Host
 * header, address or other request detail grants access.
 */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (fastify, { downstream, adminToken }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const expected = digest(adminToken);

  app.addHook('onRequest', async (request) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !tokenMatches(match[1], expected)) throw new GatewayError('invalid_admin_token');
  });

  app.post('/admin/v1/keys', { schema: { body: CreateKeyBody } }, async (request, reply) => {
    const { name, models, budget_usd, rpm, tpm } = request.body;
    const { key, secret } = await downstream.accounting.createKey(
      { name, models, budgetNanoUsd: usdToNanos(budget_usd), rpm: rpm ?? 0, tpm: tpm ?? 0 },
      callContext(request),
    );
    return reply.code(201).send({ ...adminKeyView(key, 0), key: secret });
  });

  app.get('/admin/v1/keys', { schema: { querystring: ListQuery } }, async (request) => {
    const page = await downstream.accounting.listKeys(request.query.limit ?? 100, request.query.after ?? '', callContext(request));
    return {
      object: 'list',
      data: page.keys.map((k) => adminKeyView(k)),
      has_more: page.nextPageToken !== '',
      next_after: page.nextPageToken || null,
    };
  });

  app.get('/admin/v1/keys/:id', { schema: { params: KeyParams } }, async (request) => {
    const { key, spentNanoUsd } = await downstream.accounting.getKey(request.params.id, callContext(request));
    return adminKeyView(key, spentNanoUsd);
  });

  app.delete('/admin/v1/keys/:id', { schema: { params: KeyParams } }, async (request) => {
    const key = await downstream.accounting.revokeKey(request.params.id, { ...callContext(request), retries: 0 });
    return adminKeyView(key);
  });
};
