import { type BudgetPeriod, budgetPeriodToWire, type NewKeyInput } from '@gateway/contracts';
import { usdToNanos } from '@gateway/pricing';
import type { KeyPatch } from '@gateway/protos';
import type { Static } from '@gateway/typebox';
import { page } from '../spend-logs.js';
import type { AdminApp, AdminContext } from './context.js';
import { CreateKeyBody, IdParams, ListQuery, PatchKeyBody, RotateBody } from './schemas.js';
import { adminKeyView } from './views.js';

/** A create body as accounting's new key: absent fields are none (no limit, no expiry, no team). */
function newKey(body: Static<typeof CreateKeyBody>): NewKeyInput {
  return {
    name: body.name,
    models: body.models,
    budgetNanoUsd: usdToNanos(body.budget_usd),
    rpm: body.rpm ?? 0,
    tpm: body.tpm ?? 0,
    budgetPeriod: body.budget_period ?? null,
    expiresAtMs: (body.expires_at ?? 0) * 1000,
    teamId: body.team_id ?? '',
    metadata: body.metadata ?? {},
    // Absent: storage on, as for keys made before the field.
    responseStorageOff: body.store_responses === false,
  };
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
  if (body.store_responses !== undefined) set('response_storage_off', body.store_responses !== true);
  return { patch, mask };
}

/** /admin/v1/keys: create (the secret shown once), list, read, change, rotate and revoke. */
export function keyRoutes(app: AdminApp, { accounting, call, change }: AdminContext): void {
  app.post('/admin/v1/keys', { schema: { body: CreateKeyBody } }, async (request, reply) => {
    const { key, secret } = await accounting.createKey(newKey(request.body), change(request));
    return reply.code(201).send({ ...adminKeyView(key), key: secret });
  });

  app.get('/admin/v1/keys', { schema: { querystring: ListQuery } }, async (request) => {
    const result = await accounting.listKeys(request.query.limit ?? 100, request.query.after ?? '', call(request));
    return page(result.keys.map(adminKeyView), result.nextPageToken);
  });

  app.get('/admin/v1/keys/:id', { schema: { params: IdParams } }, async (request) => {
    const { key } = await accounting.getKey(request.params.id, call(request));
    return adminKeyView(key);
  });

  app.patch('/admin/v1/keys/:id', { schema: { params: IdParams, body: PatchKeyBody } }, async (request) => {
    const { patch, mask } = keyPatch(request.body ?? {});
    const key = await accounting.updateKey(request.params.id, patch, mask, change(request));
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
      const { key, secret } = await accounting.rotateKey(request.params.id, grace, change(request));
      return { ...adminKeyView(key), key: secret };
    },
  );

  app.delete('/admin/v1/keys/:id', { schema: { params: IdParams } }, async (request) => {
    const key = await accounting.revokeKey(request.params.id, { ...change(request), retries: 0 });
    return adminKeyView(key);
  });
}
