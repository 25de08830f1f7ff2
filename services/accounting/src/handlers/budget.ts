import { GatewayError } from '@gateway/errors';
import type { AccountingServiceHandlers, ReserveBudgetRequest__Output } from '@gateway/protos';
import type { KeyRecord } from '../domain/keys.js';
import type { TeamRecord } from '../domain/teams.js';
import type { HandlerContext } from './context.js';

// The budget RPCs the chat and video services call around upstream calls: holds of a call's
// worst case (one or a batch), their release, and leases of budget a chat service spends locally.

type BudgetRpc = 'ReserveBudget' | 'ReserveBudgets' | 'ReleaseReservation' | 'LeaseBudget';

export function budgetHandlers(ctx: HandlerContext): Pick<AccountingServiceHandlers, BudgetRpc> {
  const { server, reservations } = ctx;
  const reserve = reserveWith(ctx);
  return {
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
      const amount = request.amount_nano_usd > 0 ? request.amount_nano_usd : undefined;
      await reservations.book.release(request.reservation_id, amount, request.key_id);
      return {};
    }),
    LeaseBudget: leaseBudget(ctx),
  };
}

/** Holds one call's worst case on its key (and team); resolves to the budget still available. */
function reserveWith(ctx: HandlerContext): (request: ReserveBudgetRequest__Output) => Promise<number> {
  const { reservations, callable, spendApplied, refusedAfterSpendApplied } = ctx;
  return async (request) => {
    const { key, team } = await callable(request.key_id, request.group);
    // A call's tokens count once its spend is applied: tpm limits are judged on all of them.
    if (key.tpm || team?.tpm) await spendApplied();
    await reservations.countRequest(key, team);
    const hold = (k: KeyRecord, t: TeamRecord | null) =>
      reservations.reserve(k, t, request.group, request.amount_nano_usd, request.reservation_id);
    return hold(key, team).catch((error: unknown) =>
      refusedAfterSpendApplied(error, async () => {
        const current = await callable(request.key_id, request.group);
        return hold(current.key, current.team);
      }),
    );
  };
}

function leaseBudget({
  server,
  reservations,
  callable,
  refusedAfterSpendApplied,
}: HandlerContext): AccountingServiceHandlers['LeaseBudget'] {
  return server.unary('LeaseBudget', async (request) => {
    const { key, team } = await callable(request.key_id, request.group);
    const previous = request.return_lease_id ? { leaseId: request.return_lease_id, unused: request.return_nano_usd } : undefined;
    const lease = (k: KeyRecord, t: TeamRecord | null) =>
      reservations.lease(k, t, request.group, request.lease_id, request.min_nano_usd, request.want_nano_usd, previous);
    const { granted, perCall } = await lease(key, team).catch((error: unknown) =>
      refusedAfterSpendApplied(error, async () => {
        const current = await callable(request.key_id, request.group);
        return lease(current.key, current.team);
      }),
    );
    return { granted_nano_usd: granted, per_call: perCall };
  });
}
