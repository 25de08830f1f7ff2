// The budget authority as the chat and video services see it: hold a call's worst-case price
// before anything is sent upstream, give it back when the call fails. The spend event that
// names the reservation settles it.

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
  reserve(input: ReserveInput, requestId?: string): Promise<void>;
  release(reservationId: string, requestId?: string): Promise<void>;
}

/** For a service run without accounting (some tests): every call fits. */
export const unlimitedBudget: BudgetAuthority = {
  reserve: async () => {},
  release: async () => {},
};
