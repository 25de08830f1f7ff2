// The budget authority as the chat and video services see it: hold a call's worst-case price
// before anything is sent upstream, give it back when the call fails. The spend event that
// names the reservation settles it.

import type { CallContext } from '@gateway/grpc';
import type { RequestContext } from '@gateway/logging';
import type { KeyChangedEvent } from './events.js';

/**
 * The caller's request and trace, and what bounds a hold: its call's deadline and signal (a
 * handler's CallInfo.deadline and .signal), so a hold never outlives the call it is for.
 */
export type HoldContext = Pick<CallContext, 'requestId' | 'scope' | 'deadline' | 'signal'>;

/**
 * Only the request and trace: what a give-back travels with. It must happen even when its
 * caller has left or overrun (that is often why it is given back), so it takes its own deadline.
 */
export function traceOnly(context: HoldContext | undefined): RequestContext {
  return { requestId: context?.requestId, scope: context?.scope };
}

export interface ReserveInput {
  keyId: string;
  /** The group id the key calls. */
  group: string;
  amountNanoUsd: number;
  /** The completion or job id. */
  reservationId: string;
}

export interface BudgetAuthority {
  /** Throws GatewayError budget_exceeded (422) or rate_limit_exceeded (429). */
  reserve(input: ReserveInput, context?: HoldContext): Promise<void>;
  /** Gives a reservation back; the key it is held on is named so accounting need not search for it. */
  release(hold: { keyId: string; reservationId: string }, context?: HoldContext): Promise<void>;
}

/** For a service run without accounting (some tests): every call fits. */
export const unlimitedBudget: BudgetAuthority = {
  reserve: async () => {},
  release: async () => {},
};

/**
 * Where a call's worst case is held, as its spend event names it: a reservation of its own, or
 * the part it drew from a lease its service holds.
 */
export type BudgetClaim = { readonly reservation_id: string } | { readonly lease_id: string; readonly lease_nano_usd: number };

/** Budget per call for a busy service: claims are drawn from a local lease where they can be. */
export interface CallBudget {
  /** Throws like BudgetAuthority.reserve. */
  claim(input: ReserveInput, context?: HoldContext): Promise<BudgetClaim>;
  /** The call failed and costs nothing: its claim on `keyId` goes back. */
  unclaim(keyId: string, claim: BudgetClaim, context?: HoldContext): Promise<void>;
  /** A key or team changed (the key-change broadcast): whatever is kept locally of its budget goes. */
  forget?(change: Pick<KeyChangedEvent, 'key_id' | 'team_id'>): void;
  close(): Promise<void>;
}

/** A reservation per call: every claim is a round trip to the authority. */
export function perCallBudget(authority: BudgetAuthority): CallBudget {
  return {
    claim: async (input, context) => {
      await authority.reserve(input, context);
      return { reservation_id: input.reservationId };
    },
    unclaim: async (keyId, claim, context) => {
      if ('reservation_id' in claim) await authority.release({ keyId, reservationId: claim.reservation_id }, context);
    },
    close: async () => {},
  };
}
