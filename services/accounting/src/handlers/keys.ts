import { budgetPeriodFromWire } from '@gateway/contracts';
import { fieldsOf } from '@gateway/logging';
import type { AccountingServiceHandlers, KeyPatch__Output } from '@gateway/protos';
import { diff } from '../domain/audit.js';
import type { KeyChanges } from '../domain/keys.js';
import { effectiveModels } from '../domain/validation.js';
import { keyAuditView, keyMessage } from '../messages.js';
import { auditSource, checkMask, type HandlerContext } from './context.js';

// The key RPCs: authentication for the edges, and the admin's create, read, update, rotate and
// revoke. Each change is written with its audit entry, then announced so edges drop the key.

type KeyRpc = 'AuthenticateKey' | 'CreateKey' | 'ListKeys' | 'GetKey' | 'UpdateKey' | 'RotateKey' | 'RevokeKey';

const KEY_PATCH_FIELDS = new Set([
  'name',
  'models',
  'budget_nano_usd',
  'rpm',
  'tpm',
  'budget_period',
  'expires_at_ms',
  'team_id',
  'metadata',
  'response_storage_off',
]);

function keyChanges(patch: KeyPatch__Output | null, mask: Set<string>): KeyChanges {
  const p = patch ?? ({} as Partial<KeyPatch__Output>);
  const changes: KeyChanges = {};
  if (mask.has('name')) changes.name = p.name ?? '';
  if (mask.has('models')) changes.models = p.models ?? [];
  if (mask.has('budget_nano_usd')) changes.budgetNanoUsd = p.budget_nano_usd ?? 0;
  if (mask.has('rpm')) changes.rpm = p.rpm ?? 0;
  if (mask.has('tpm')) changes.tpm = p.tpm ?? 0;
  if (mask.has('budget_period')) changes.budgetPeriod = budgetPeriodFromWire(p.budget_period ?? '');
  if (mask.has('expires_at_ms')) changes.expiresAtMs = p.expires_at_ms ?? 0;
  if (mask.has('team_id')) changes.teamId = p.team_id || null;
  if (mask.has('metadata')) changes.metadata = p.metadata ?? {};
  if (mask.has('response_storage_off')) changes.responseStorageOff = p.response_storage_off ?? false;
  return changes;
}

export function keyHandlers(ctx: HandlerContext): Pick<AccountingServiceHandlers, KeyRpc> {
  return {
    AuthenticateKey: authenticateKey(ctx),
    CreateKey: createKey(ctx),
    ListKeys: listKeys(ctx),
    GetKey: getKey(ctx),
    UpdateKey: updateKey(ctx),
    RotateKey: rotateKey(ctx),
    RevokeKey: revokeKey(ctx),
  };
}

function authenticateKey({ server, keys, clock, liveTeam }: HandlerContext): AccountingServiceHandlers['AuthenticateKey'] {
  return server.unary('AuthenticateKey', async (request) => {
    const { key, validUntilMs } = await keys.authenticate(request.key_hash);
    const team = await liveTeam(key);
    const message = keyMessage(key, clock());
    return {
      key: message,
      spent_nano_usd: message.balance?.spent_nano_usd ?? 0,
      allowed_models: effectiveModels(key.models, team?.models),
      valid_until_ms: validUntilMs ?? 0,
    };
  });
}

function createKey(ctx: HandlerContext): AccountingServiceHandlers['CreateKey'] {
  const { server, store, keys, audit, logger, clock, announce, checkTeam } = ctx;
  return server.unary('CreateKey', async (request, call) => {
    await checkTeam(request.team_id);
    const { key, secret } = await store.atomically(async () => {
      const created = await keys.create({
        name: request.name,
        models: request.models,
        budgetNanoUsd: request.budget_nano_usd,
        rpm: request.rpm,
        tpm: request.tpm,
        budgetPeriod: budgetPeriodFromWire(request.budget_period),
        expiresAtMs: request.expires_at_ms,
        teamId: request.team_id || null,
        metadata: request.metadata,
        responseStorageOff: request.response_storage_off,
      });
      await audit.record('key.created', created.key._id, auditSource(request.audit), diff({}, keyAuditView(created.key)));
      return created;
    });
    logger.info({ ...fieldsOf(call.scope), keyId: key._id, name: key.name }, 'key created');
    await announce({ key_id: key._id, change: 'created' });
    return { key: keyMessage(key, clock()), secret };
  });
}

function listKeys({ server, keys, clock, spendApplied }: HandlerContext): AccountingServiceHandlers['ListKeys'] {
  return server.unary('ListKeys', async (request) => {
    await spendApplied();
    const page = await keys.list(request.page_size, request.page_token);
    const now = clock();
    return { keys: page.keys.map((k) => keyMessage(k, now)), next_page_token: page.nextPageToken };
  });
}

function getKey({ server, keys, clock, spendApplied }: HandlerContext): AccountingServiceHandlers['GetKey'] {
  return server.unary('GetKey', async (request) => {
    await spendApplied();
    const key = await keys.get(request.key_id);
    const message = keyMessage(key, clock());
    return { key: message, spent_nano_usd: message.balance?.spent_nano_usd ?? 0 };
  });
}

function updateKey(ctx: HandlerContext): AccountingServiceHandlers['UpdateKey'] {
  const { server, store, keys, ledger, audit, logger, clock, announce, checkTeam, spendApplied } = ctx;
  return server.unary('UpdateKey', async (request, call) => {
    const changes = keyChanges(request.patch, checkMask(request.update_mask, KEY_PATCH_FIELDS));
    if (changes.teamId !== undefined) await checkTeam(changes.teamId);
    await spendApplied();
    const { after, changed } = await store.atomically(async () => {
      const { before, after } = await keys.update(request.key_id, changes, (start) => ledger.spentSince({ keyId: request.key_id }, start));
      const changed = diff(keyAuditView(before), keyAuditView(after));
      if (Object.keys(changed).length > 0) await audit.record('key.updated', after._id, auditSource(request.audit), changed);
      return { after, changed };
    });
    if (Object.keys(changed).length > 0) {
      logger.info({ ...fieldsOf(call.scope), keyId: after._id, fields: Object.keys(changed) }, 'key updated');
      await announce({ key_id: after._id, change: 'updated' });
    }
    return { key: keyMessage(after, clock()) };
  });
}

function rotateKey({ server, store, keys, audit, logger, clock, announce }: HandlerContext): AccountingServiceHandlers['RotateKey'] {
  return server.unary('RotateKey', async (request, call) => {
    const { after, secret } = await store.atomically(async () => {
      const rotated = await keys.rotate(request.key_id, request.grace_seconds);
      await audit.record('key.rotated', rotated.after._id, auditSource(request.audit), {
        hint: { from: rotated.before.hint, to: rotated.after.hint },
        grace_seconds: { from: null, to: request.grace_seconds },
      });
      return rotated;
    });
    logger.info({ ...fieldsOf(call.scope), keyId: after._id, graceSeconds: request.grace_seconds }, 'key rotated');
    await announce({ key_id: after._id, change: 'updated' });
    return { key: keyMessage(after, clock()), secret };
  });
}

function revokeKey({ server, store, keys, audit, logger, clock, announce }: HandlerContext): AccountingServiceHandlers['RevokeKey'] {
  return server.unary('RevokeKey', async (request, call) => {
    const { key, changed } = await store.atomically(async () => {
      const revoked = await keys.revoke(request.key_id);
      if (revoked.changed) {
        await audit.record('key.revoked', revoked.key._id, auditSource(request.audit), {
          revoked_at: { from: null, to: Math.floor((revoked.key.revoked_at?.getTime() ?? 0) / 1000) },
        });
      }
      return revoked;
    });
    if (changed) {
      logger.info({ ...fieldsOf(call.scope), keyId: key._id }, 'key revoked');
      await announce({ key_id: key._id, change: 'revoked' });
    }
    return { key: keyMessage(key, clock()) };
  });
}
