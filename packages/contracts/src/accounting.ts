import { GatewayError, isErrorCode } from '@gateway/errors';
import { traceOnly, type BudgetAuthority, type HoldContext, type ReserveInput } from './budget.js';
import { abortedCallError, createClient, unary, type CallContext } from '@gateway/grpc';
import {
  protos,
  type AccountingServiceClient,
  type AuditContext,
  type AuditEvent__Output,
  type DailySpend__Output,
  type TopSpender__Output,
  type GetUsageResponse__Output,
  type Key__Output,
  type KeyPatch,
  type SpendLogEntry__Output,
  type Team__Output,
  type TeamFields,
} from '@gateway/protos';
import { type BudgetPeriod, budgetPeriodToWire } from './periods.js';
import { isResponseNotFound, storedResponseFromWire, storedResponseToWire, type StoredResponseRecord } from './stored-responses.js';

/** A key as authentication returns it: with what it may call (narrowed by its team) and until when the secret works. */
export interface AuthenticatedKeyAnswer {
  key: Key__Output;
  /** Spend in the key's current period. */
  spentNanoUsd: number;
  allowedModels: string[];
  /** Unix ms; undefined: no end. */
  validUntilMs: number | undefined;
}

export interface NewKeyInput {
  name: string;
  models: string[];
  budgetNanoUsd: number;
  rpm: number;
  tpm?: number;
  budgetPeriod?: BudgetPeriod;
  expiresAtMs?: number;
  teamId?: string;
  metadata?: Record<string, string>;
  /** The Responses API stores nothing for this key (default false: it stores). */
  responseStorageOff?: boolean;
}

/** The accounting service as its callers (the edge, the CLI's tests) see it. */
export class AccountingClient {
  readonly #client: AccountingServiceClient;

  constructor(address: string) {
    this.#client = createClient(protos().gateway.accounting.v1.AccountingService, address);
  }

  async authenticateKey(keyHash: string, context?: CallContext): Promise<AuthenticatedKeyAnswer> {
    const response = await unary(this.#client, this.#client.AuthenticateKey, { key_hash: keyHash }, context);
    const key = required(response.key);
    return {
      key,
      spentNanoUsd: response.spent_nano_usd,
      // An accounting of an earlier release sends no list: the key's own applies.
      allowedModels: response.allowed_models.length > 0 ? response.allowed_models : key.models,
      validUntilMs: response.valid_until_ms || undefined,
    };
  }

  async createKey(input: NewKeyInput, context?: CallContext & { audit?: AuditContext }): Promise<{ key: Key__Output; secret: string }> {
    const response = await unary(
      this.#client,
      this.#client.CreateKey,
      {
        name: input.name,
        models: input.models,
        budget_nano_usd: input.budgetNanoUsd,
        rpm: input.rpm,
        tpm: input.tpm ?? 0,
        budget_period: budgetPeriodToWire(input.budgetPeriod ?? null),
        expires_at_ms: input.expiresAtMs ?? 0,
        team_id: input.teamId ?? '',
        metadata: input.metadata ?? {},
        response_storage_off: input.responseStorageOff ?? false,
        audit: context?.audit ?? null,
      },
      { retries: 0, ...context },
    );
    return { key: required(response.key), secret: response.secret };
  }

  /** Applies the `mask` fields of `patch`; not retried (an update is not repeated blindly). */
  async updateKey(keyId: string, patch: KeyPatch, mask: string[], context?: CallContext & { audit?: AuditContext }): Promise<Key__Output> {
    const response = await unary(
      this.#client,
      this.#client.UpdateKey,
      { key_id: keyId, patch, update_mask: mask, audit: context?.audit ?? null },
      { retries: 0, ...context },
    );
    return required(response.key);
  }

  async rotateKey(
    keyId: string,
    graceSeconds: number,
    context?: CallContext & { audit?: AuditContext },
  ): Promise<{ key: Key__Output; secret: string }> {
    const response = await unary(
      this.#client,
      this.#client.RotateKey,
      { key_id: keyId, grace_seconds: graceSeconds, audit: context?.audit ?? null },
      { retries: 0, ...context },
    );
    return { key: required(response.key), secret: response.secret };
  }

  async createTeam(team: TeamFields, context?: CallContext & { audit?: AuditContext }): Promise<Team__Output> {
    const response = await unary(
      this.#client,
      this.#client.CreateTeam,
      { team, audit: context?.audit ?? null },
      { retries: 0, ...context },
    );
    return requiredTeam(response.team);
  }

  async listTeams(pageSize: number, pageToken: string, context?: CallContext): Promise<{ teams: Team__Output[]; nextPageToken: string }> {
    const response = await unary(this.#client, this.#client.ListTeams, { page_size: pageSize, page_token: pageToken }, context);
    return { teams: response.teams, nextPageToken: response.next_page_token };
  }

  async getTeam(teamId: string, context?: CallContext): Promise<Team__Output> {
    const response = await unary(this.#client, this.#client.GetTeam, { team_id: teamId }, context);
    return requiredTeam(response.team);
  }

  async updateTeam(
    teamId: string,
    patch: TeamFields,
    mask: string[],
    context?: CallContext & { audit?: AuditContext },
  ): Promise<Team__Output> {
    const response = await unary(
      this.#client,
      this.#client.UpdateTeam,
      { team_id: teamId, patch, update_mask: mask, audit: context?.audit ?? null },
      { retries: 0, ...context },
    );
    return requiredTeam(response.team);
  }

  async deleteTeam(teamId: string, context?: CallContext & { audit?: AuditContext }): Promise<void> {
    await unary(this.#client, this.#client.DeleteTeam, { team_id: teamId, audit: context?.audit ?? null }, { retries: 0, ...context });
  }

  async listSpendLogs(
    query: { keyId?: string; teamId?: string; group?: string; fromMs?: number; toMs?: number; pageSize?: number; pageToken?: string },
    context?: CallContext,
  ): Promise<{ entries: SpendLogEntry__Output[]; nextPageToken: string }> {
    const response = await unary(
      this.#client,
      this.#client.ListSpendLogs,
      {
        key_id: query.keyId ?? '',
        team_id: query.teamId ?? '',
        group: query.group ?? '',
        from_ms: query.fromMs ?? 0,
        to_ms: query.toMs ?? 0,
        page_size: query.pageSize ?? 0,
        page_token: query.pageToken ?? '',
      },
      context,
    );
    return { entries: response.entries, nextPageToken: response.next_page_token };
  }

  async getDailySpend(
    query: { keyId?: string; teamId?: string; group?: string; fromDay?: string; toDay?: string },
    context?: CallContext,
  ): Promise<DailySpend__Output[]> {
    const response = await unary(
      this.#client,
      this.#client.GetDailySpend,
      {
        key_id: query.keyId ?? '',
        team_id: query.teamId ?? '',
        group: query.group ?? '',
        from_day: query.fromDay ?? '',
        to_day: query.toDay ?? '',
      },
      context,
    );
    return response.days;
  }

  /** The keys or teams that spent most between two days (both included), highest first. */
  async getTopSpenders(
    query: { by: 'key' | 'team'; fromDay?: string; toDay?: string; limit?: number },
    context?: CallContext,
  ): Promise<TopSpender__Output[]> {
    const response = await unary(
      this.#client,
      this.#client.GetTopSpenders,
      {
        by: query.by === 'team' ? 'SPENDER_KIND_TEAM' : 'SPENDER_KIND_KEY',
        from_day: query.fromDay ?? '',
        to_day: query.toDay ?? '',
        limit: query.limit ?? 0,
      },
      context,
    );
    return response.spenders;
  }

  async listAuditEvents(
    query: { targetId?: string; pageSize?: number; pageToken?: string },
    context?: CallContext,
  ): Promise<{ events: AuditEvent__Output[]; nextPageToken: string }> {
    const response = await unary(
      this.#client,
      this.#client.ListAuditEvents,
      { target_id: query.targetId ?? '', page_size: query.pageSize ?? 0, page_token: query.pageToken ?? '' },
      context,
    );
    return { events: response.events, nextPageToken: response.next_page_token };
  }

  async listKeys(pageSize: number, pageToken: string, context?: CallContext): Promise<{ keys: Key__Output[]; nextPageToken: string }> {
    const response = await unary(this.#client, this.#client.ListKeys, { page_size: pageSize, page_token: pageToken }, context);
    return { keys: response.keys, nextPageToken: response.next_page_token };
  }

  async getKey(keyId: string, context?: CallContext): Promise<{ key: Key__Output; spentNanoUsd: number }> {
    const response = await unary(this.#client, this.#client.GetKey, { key_id: keyId }, context);
    return { key: required(response.key), spentNanoUsd: response.spent_nano_usd };
  }

  async revokeKey(keyId: string, context?: CallContext & { audit?: AuditContext }): Promise<Key__Output> {
    const response = await unary(this.#client, this.#client.RevokeKey, { key_id: keyId, audit: context?.audit ?? null }, context);
    return required(response.key);
  }

  async getUsage(keyId: string, context?: CallContext): Promise<GetUsageResponse__Output & { key: Key__Output }> {
    const response = await unary(this.#client, this.#client.GetUsage, { key_id: keyId }, context);
    return { ...response, key: required(response.key) };
  }

  /** Counts the request against the key's rpm and holds `amountNanoUsd`; not retried (the id makes a repeat harmless, but a 429 must count once). */
  async reserveBudget(
    input: { keyId: string; group: string; amountNanoUsd: number; reservationId: string },
    context?: CallContext,
  ): Promise<number> {
    const response = await unary(
      this.#client,
      this.#client.ReserveBudget,
      {
        key_id: input.keyId,
        group: input.group,
        amount_nano_usd: input.amountNanoUsd,
        reservation_id: input.reservationId,
      },
      { retries: 0, ...context },
    );
    return response.available_nano_usd;
  }

  /** Several holds in one round trip; each result is a number (available after) or a GatewayError. */
  async reserveBudgets(
    inputs: readonly { keyId: string; group: string; amountNanoUsd: number; reservationId: string }[],
    context?: CallContext,
  ): Promise<(number | GatewayError)[]> {
    const response = await unary(
      this.#client,
      this.#client.ReserveBudgets,
      {
        reservations: inputs.map((i) => ({
          key_id: i.keyId,
          group: i.group,
          amount_nano_usd: i.amountNanoUsd,
          reservation_id: i.reservationId,
        })),
      },
      { retries: 0, ...context },
    );
    return response.results.map((r) => {
      if (!r.error_code) return r.available_nano_usd;
      const code = isErrorCode(r.error_code) ? r.error_code : 'internal_error';
      return new GatewayError(code, { message: r.error_message || undefined, retryAfterSeconds: r.retry_after_seconds || undefined });
    });
  }

  /**
   * Gives a reservation back: all of it, or `amountNanoUsd` of it (a lease's undrawn part). The
   * key it is held on lets accounting update that key alone instead of searching every key.
   */
  async releaseReservation(hold: { keyId: string; reservationId: string; amountNanoUsd?: number }, context?: CallContext): Promise<void> {
    await unary(
      this.#client,
      this.#client.ReleaseReservation,
      {
        key_id: hold.keyId,
        reservation_id: hold.reservationId,
        amount_nano_usd: hold.amountNanoUsd ?? 0,
      },
      context,
    );
  }

  /** Holds a lease; not retried (a lost answer leaves a hold the sweeper returns). */
  async leaseBudget(
    input: {
      keyId: string;
      group: string;
      leaseId: string;
      minNanoUsd: number;
      wantNanoUsd: number;
      previous?: { leaseId: string; unusedNanoUsd: number };
    },
    context?: CallContext,
  ): Promise<{ grantedNanoUsd: number; perCall: boolean }> {
    const response = await unary(
      this.#client,
      this.#client.LeaseBudget,
      {
        key_id: input.keyId,
        group: input.group,
        lease_id: input.leaseId,
        min_nano_usd: input.minNanoUsd,
        want_nano_usd: input.wantNanoUsd,
        return_lease_id: input.previous?.leaseId ?? '',
        return_nano_usd: input.previous?.unusedNanoUsd ?? 0,
      },
      { retries: 0, ...context },
    );
    return { grantedNanoUsd: response.granted_nano_usd, perCall: response.per_call };
  }

  /** Stores (or replaces) the key's response; retried, since a repeat lands once. */
  async putStoredResponse(record: StoredResponseRecord, context?: CallContext): Promise<void> {
    await unary(this.#client, this.#client.PutStoredResponse, { response: storedResponseToWire(record) }, context);
  }

  /** The key's unexpired response; undefined when absent, expired or another key's. */
  async getStoredResponse(keyId: string, id: string, context?: CallContext): Promise<StoredResponseRecord | undefined> {
    try {
      const answer = await unary(this.#client, this.#client.GetStoredResponse, { key_id: keyId, response_id: id }, context);
      return answer.response ? storedResponseFromWire(answer.response) : undefined;
    } catch (error) {
      if (isResponseNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Removes the key's response; false when there was none. Not retried: a repeat would say none. */
  async deleteStoredResponse(keyId: string, id: string, context?: CallContext): Promise<boolean> {
    try {
      await unary(this.#client, this.#client.DeleteStoredResponse, { key_id: keyId, response_id: id }, { retries: 0, ...context });
      return true;
    } catch (error) {
      if (isResponseNotFound(error)) return false;
      throw error;
    }
  }

  close(): void {
    this.#client.close();
  }
}

function required<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('accounting answered without a key');
  return value;
}

function requiredTeam<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('accounting answered without a team');
  return value;
}

interface PendingHold {
  input: ReserveInput;
  /** The caller's request, trace, deadline and signal, for a hold that travels alone. */
  context: HoldContext | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The latest of a batch's deadlines: the batch serves them all; each caller leaves on its own signal. */
function latestDeadline(batch: readonly PendingHold[]): number | undefined {
  let latest: number | undefined;
  for (const { context } of batch) {
    const deadline = context?.deadline;
    if (deadline === undefined || !Number.isFinite(deadline)) return undefined;
    latest = latest === undefined ? deadline : Math.max(latest, deadline);
  }
  return latest;
}

/**
 * Rejects a hold as soon as its own caller cancels or overruns, queued or in a batch, whatever
 * the others do (a hold accounting grants after that goes back with its sweeper).
 */
function leaveOnAbort(pending: PendingHold): void {
  const signal = pending.context?.signal;
  if (!signal) return;
  const onAbort = () => pending.reject(abortedCallError(new Error('the hold was abandoned'), signal));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
}

/**
 * The budget authority the chat and video services call, backed by accounting over gRPC. Holds
 * asked for while a round trip is under way travel together in the next one (no timer: an idle
 * caller's hold leaves at once), so a busy service pays one round trip for many calls.
 */
export function accountingBudget(client: AccountingClient): BudgetAuthority {
  let queue: PendingHold[] = [];
  let inFlight = false;
  const flush = (): void => {
    if (inFlight || queue.length === 0) return;
    // Holds whose callers left while queued were rejected then (leaveOnAbort): not sent.
    const batch = queue.filter((p) => !p.context?.signal?.aborted);
    queue = [];
    if (batch.length === 0) return;
    inFlight = true;
    const done = () => {
      inFlight = false;
      flush();
    };
    // A hold travelling alone goes in its caller's request and trace, bounded and cancelled by
    // its call; a batch serves several requests, so it goes in none (a flush after a round trip
    // runs in that trip's context) and lasts until the latest of their deadlines.
    const only = batch.length === 1 ? batch[0] : undefined;
    const send = only
      ? client.reserveBudget(only.input, { ...only.context }).then((available) => [available])
      : client.reserveBudgets(
          batch.map((p) => p.input),
          { deadline: latestDeadline(batch) },
        );
    send
      .then(
        (results) => {
          batch.forEach((pending, i) => {
            const result = results[i];
            if (result instanceof GatewayError) pending.reject(result);
            else if (result === undefined) pending.reject(new GatewayError('internal_error'));
            else pending.resolve();
          });
        },
        (error: unknown) => {
          for (const pending of batch) pending.reject(error);
        },
      )
      .finally(done);
  };
  return {
    reserve: (input, context) =>
      new Promise<void>((resolve, reject) => {
        const pending: PendingHold = { input, context, resolve, reject };
        leaveOnAbort(pending);
        queue.push(pending);
        flush();
      }),
    release: async (hold, context) => {
      await client.releaseReservation(hold, traceOnly(context));
    },
  };
}
