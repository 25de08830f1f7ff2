import type { BudgetAuthority } from '@gateway/runtime';
import { createClient, unary, type CallContext } from '@gateway/grpc';
import { protos, type AccountingServiceClient, type GetUsageResponse__Output, type Key__Output } from '@gateway/protos';

/** The accounting service as its callers (the edge, the CLI's tests) see it. */
export class AccountingClient {
  readonly #client: AccountingServiceClient;

  constructor(address: string) {
    this.#client = createClient(protos().gateway.accounting.v1.AccountingService, address);
  }

  async authenticateKey(keyHash: string, context?: CallContext): Promise<{ key: Key__Output; spentNanoUsd: number }> {
    const response = await unary(this.#client, this.#client.AuthenticateKey, { key_hash: keyHash }, context);
    return { key: required(response.key), spentNanoUsd: response.spent_nano_usd };
  }

  async createKey(
    input: { name: string; models: string[]; budgetNanoUsd: number; rpm: number; tpm?: number }, context?: CallContext,
  ): Promise<{ key: Key__Output; secret: string }> {
    const response = await unary(this.#client, this.#client.CreateKey, {
      name: input.name, models: input.models, budget_nano_usd: input.budgetNanoUsd, rpm: input.rpm, tpm: input.tpm ?? 0,
    }, { retries: 0, ...context });
    return { key: required(response.key), secret: response.secret };
  }

  async listKeys(pageSize: number, pageToken: string, context?: CallContext): Promise<{ keys: Key__Output[]; nextPageToken: string }> {
    const response = await unary(this.#client, this.#client.ListKeys, { page_size: pageSize, page_token: pageToken }, context);
    return { keys: response.keys, nextPageToken: response.next_page_token };
  }

  async getKey(keyId: string, context?: CallContext): Promise<{ key: Key__Output; spentNanoUsd: number }> {
    const response = await unary(this.#client, this.#client.GetKey, { key_id: keyId }, context);
    return { key: required(response.key), spentNanoUsd: response.spent_nano_usd };
  }

  async revokeKey(keyId: string, context?: CallContext): Promise<Key__Output> {
    const response = await unary(this.#client, this.#client.RevokeKey, { key_id: keyId }, context);
    return required(response.key);
  }

  async getUsage(keyId: string, context?: CallContext): Promise<GetUsageResponse__Output & { key: Key__Output }> {
    const response = await unary(this.#client, this.#client.GetUsage, { key_id: keyId }, context);
    return { ...response, key: required(response.key) };
  }

  /** Counts the request against the key's rpm and holds `amountNanoUsd`; not retried (the id makes a repeat harmless, but a 429 must count once). */
  async reserveBudget(input: { keyId: string; group: string; amountNanoUsd: number; reservationId: string }, context?: CallContext): Promise<number> {
    const response = await unary(this.#client, this.#client.ReserveBudget, {
      key_id: input.keyId, group: input.group, amount_nano_usd: input.amountNanoUsd, reservation_id: input.reservationId,
    }, { retries: 0, ...context });
    return response.available_nano_usd;
  }

  async releaseReservation(reservationId: string, context?: CallContext): Promise<void> {
    await unary(this.#client, this.#client.ReleaseReservation, { reservation_id: reservationId }, context);
  }

  close(): void {
    this.#client.close();
  }
}

function required<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('accounting answered without a key');
  return value;
}

/** The budget authority the chat and video services call, backed by accounting over gRPC. */
export function accountingBudget(client: AccountingClient): BudgetAuthority {
  return {
    reserve: async (input, requestId) => {
      await client.reserveBudget(input, { requestId });
    },
    release: async (reservationId, requestId) => {
      await client.releaseReservation(reservationId, { requestId });
    },
  };
}
