import type { Bus } from '@gateway/bus';
import { encodeKeyChangedEvent, KEYS_CHANGED_SUBJECT, type KeyChangedEvent } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { GrpcServer } from '@gateway/grpc';
import { fieldsOf, type Logger } from '@gateway/logging';
import type { AccountingServiceHandlers, Key, ReserveBudgetRequest__Output } from '@gateway/protos';
import { keyAllows, type KeyRecord, type KeyRepository } from './domain/keys.js';
import type { Ledger } from './domain/ledger.js';
import type { Reservations } from './domain/reservations.js';

// The gRPC handlers of gateway.accounting.v1.AccountingService: requests to domain calls and
// back; app.ts wires them.

export interface HandlerDeps {
  server: GrpcServer;
  keys: KeyRepository;
  reservations: Reservations;
  ledger: Ledger;
  bus: Bus;
  logger: Logger;
}

/** A stored key as it crosses gRPC: never its hash. */
export function keyMessage(key: KeyRecord): Key {
  return {
    id: key._id,
    name: key.name,
    models: key.models,
    budget_nano_usd: key.budget_nano_usd,
    rpm: key.rpm,
    created_at_ms: key.created_at.getTime(),
    revoked_at_ms: key.revoked_at ? key.revoked_at.getTime() : 0,
    hint: key.hint,
    tpm: key.tpm ?? 0,
  };
}

/** The service's handlers, each wrapped by `server.unary` (errors to statuses, scope, metrics). */
export function accountingHandlers({ server, keys, reservations, ledger, bus, logger }: HandlerDeps): AccountingServiceHandlers {
  const { book } = reservations;
  const keyChanged = (key_id: string, change: KeyChangedEvent['change']) =>
    bus.broadcast(KEYS_CHANGED_SUBJECT, encodeKeyChangedEvent({ key_id, change })).catch((error: unknown) => {
      logger.warn({ err: error, keyId: key_id }, 'could not announce a key change; edges fall back to their cache expiry');
    });

  const reserve = async (request: ReserveBudgetRequest__Output): Promise<number> => {
    const key = await keys.get(request.key_id);
    if (key.revoked_at !== null) throw new GatewayError('invalid_api_key');
    if (!keyAllows(key, request.group)) throw new GatewayError('model_not_allowed');
    await reservations.countRequest(key);
    return reservations.reserve(key, request.group, request.amount_nano_usd, request.reservation_id);
  };

  return {
    AuthenticateKey: server.unary('AuthenticateKey', async (request) => {
      const key = await keys.authenticate(request.key_hash);
      return { key: keyMessage(key), spent_nano_usd: book.figures(key).spent };
    }),
    CreateKey: server.unary('CreateKey', async (request, call) => {
      const { key, secret } = await keys.create({
        name: request.name,
        models: request.models,
        budgetNanoUsd: request.budget_nano_usd,
        rpm: request.rpm,
        tpm: request.tpm,
      });
      logger.info({ ...fieldsOf(call.scope), keyId: key._id, name: key.name }, 'key created');
      await keyChanged(key._id, 'created');
      return { key: keyMessage(key), secret };
    }),
    ListKeys: server.unary('ListKeys', async (request) => {
      const page = await keys.list(request.page_size, request.page_token);
      return { keys: page.keys.map(keyMessage), next_page_token: page.nextPageToken };
    }),
    GetKey: server.unary('GetKey', async (request) => {
      const key = await keys.get(request.key_id);
      return { key: keyMessage(key), spent_nano_usd: book.figures(key).spent };
    }),
    RevokeKey: server.unary('RevokeKey', async (request, call) => {
      const { key, changed } = await keys.revoke(request.key_id);
      if (changed) {
        logger.info({ ...fieldsOf(call.scope), keyId: key._id }, 'key revoked');
        await keyChanged(key._id, 'revoked');
      }
      return { key: keyMessage(key) };
    }),
    GetUsage: server.unary('GetUsage', async (request) => {
      const key = await keys.get(request.key_id);
      const groups = await ledger.usageOf(key._id);
      const { spent, reserved } = book.figures(key);
      return {
        key: keyMessage(key),
        spent_nano_usd: spent,
        reserved_nano_usd: reserved,
        groups: groups.map((g) => ({ group: g.group, spent_nano_usd: g.spent_nano_usd, requests: g.requests })),
        period_start_ms: key.created_at.getTime(),
      };
    }),
    ReserveBudget: server.unary('ReserveBudget', async (request) => ({ available_nano_usd: await reserve(request) })),
    ReserveBudgets: server.unary('ReserveBudgets', async (request) => {
      const results = [];
      for (const item of request.reservations) {
        try {
          results.push({ available_nano_usd: await reserve(item), error_code: '', error_message: '', retry_after_seconds: 0 });
        } catch (error) {
          if (!(error instanceof GatewayError)) throw error;
          results.push({
            available_nano_usd: 0,
            error_code: error.code,
            error_message: error.message,
            retry_after_seconds: error.retryAfterSeconds ?? 0,
          });
        }
      }
      return { results };
    }),
    ReleaseReservation: server.unary('ReleaseReservation', async (request) => {
      await book.release(request.reservation_id, request.amount_nano_usd > 0 ? request.amount_nano_usd : undefined, request.key_id);
      return {};
    }),
    LeaseBudget: server.unary('LeaseBudget', async (request) => {
      const key = await keys.get(request.key_id);
      if (key.revoked_at !== null) throw new GatewayError('invalid_api_key');
      if (!keyAllows(key, request.group)) throw new GatewayError('model_not_allowed');
      const previous = request.return_lease_id ? { leaseId: request.return_lease_id, unused: request.return_nano_usd } : undefined;
      const { granted, perCall } = await reservations.lease(
        key,
        request.group,
        request.lease_id,
        request.min_nano_usd,
        request.want_nano_usd,
        previous,
      );
      return { granted_nano_usd: granted, per_call: perCall };
    }),
  };
}
