import { randomBytes } from 'node:crypto';
import { GatewayError } from '@gateway/errors';
import type { AccountingClient } from './accounting.js';
import { traceOnly, type BudgetAuthority, type BudgetClaim, type CallBudget, type HoldContext, type ReserveInput } from './budget.js';
import type { KeyChangedEvent } from './events.js';

// Budget leases: a busy chat service holds a slice of a key's budget in accounting and draws
// its calls' worst cases from it locally, so most calls make no accounting round trip. Every
// drawn part is held in accounting until the call's spend event settles it (or its failure
// gives it back), so the key never commits more than its budget. Undrawn parts go back when a
// lease is renewed or expires; a lease is short-lived, so money another replica needs is not
// kept from it for long. Keys with rate limits are held per call: each call must be counted.
// A key or team change (its budget, team, models or limits) drops the leases it may concern at
// once, so the next call renews under the new terms instead of drawing on the old ones.

interface Lease {
  id: string;
  /** The key it is held on, named when its undrawn part goes back. */
  keyId: string;
  remaining: number;
  /** Calls drawn from it, to size the next one. */
  calls: number;
  expiresAt: number;
}

interface Slot {
  keyId: string;
  lease?: Lease;
  renewing?: Promise<void>;
  /** Calls drawn from the previous lease. */
  lastCalls: number;
  /** Counts drops: a renewal that started under an earlier count was asked under the old terms. */
  epoch: number;
}

/**
 * Lease ids start with this: chat makes them, accounting's sweeper tells them from single
 * calls' holds by it, so it is written once, here.
 */
export const LEASE_PREFIX = 'lease_';

export interface BudgetLeaseOptions {
  /** How long a lease is drawn from before its undrawn part goes back. */
  ttlMs?: number;
  /** Bounds on how many worst cases one lease asks for (scaled to how busy the key was). */
  minCalls?: number;
  maxCalls?: number;
  now?: () => number;
}

/** Remembered keys with rate limits (the map is bounded). */
const PER_CALL_KEYS_MAX = 10_000;
/** How long a key is remembered as per-call: limits can be removed by an update, so it is asked again after this. */
const PER_CALL_MEMORY_MS = 60_000;

export class BudgetLeases implements CallBudget {
  readonly #slots = new Map<string, Slot>();
  /** Keys whose calls are each held in accounting (they or their team have rate limits), until when. */
  readonly #perCallKeys = new Map<string, number>();
  /** Where each live lease sits, so a failed call's part returns to it while it is current. */
  readonly #live = new Map<string, Lease>();
  readonly #prefix = `${LEASE_PREFIX}${randomBytes(6).toString('hex')}_`;
  #sequence = 0;
  readonly #timer: NodeJS.Timeout;
  readonly #ttlMs: number;
  readonly #minCalls: number;
  readonly #maxCalls: number;
  readonly #now: () => number;

  constructor(
    private readonly client: AccountingClient,
    /** Per-call holds, for keys with rate limits. */
    private readonly perCall: BudgetAuthority,
    options: BudgetLeaseOptions = {},
  ) {
    this.#ttlMs = options.ttlMs ?? 2000;
    this.#minCalls = options.minCalls ?? 16;
    this.#maxCalls = options.maxCalls ?? 1024;
    this.#now = options.now ?? Date.now;
    this.#timer = setInterval(() => this.#returnExpired(), Math.max(50, this.#ttlMs / 4));
    this.#timer.unref();
  }

  #isPerCall(keyId: string): boolean {
    const until = this.#perCallKeys.get(keyId);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#perCallKeys.delete(keyId);
    return false;
  }

  async claim(input: ReserveInput, context?: HoldContext): Promise<BudgetClaim> {
    if (!this.#isPerCall(input.keyId)) {
      const slotKey = `${input.keyId}|${input.group}`;
      let slot = this.#slots.get(slotKey);
      if (!slot) {
        slot = { keyId: input.keyId, lastCalls: 0, epoch: 0 };
        this.#slots.set(slotKey, slot);
      }
      // A renewal another call started may leave too little for this one: then it renews itself.
      for (let round = 0; round < 3; round += 1) {
        const drawn = this.#draw(slot, input.amountNanoUsd);
        if (drawn) return drawn;
        if (slot.renewing) {
          // Another call's renewal: its failure (its worst case not fitting, its caller gone) is
          // its own, but accounting not answering in time is everyone's: no second wait on it.
          const failure = await slot.renewing.then(
            () => undefined,
            (error: unknown) => error,
          );
          if (failure instanceof GatewayError && failure.code === 'service_unavailable') throw failure;
        } else {
          const renewing = this.#renew(slot, input, context).finally(() => {
            slot.renewing = undefined;
          });
          slot.renewing = renewing;
          await renewing;
        }
        if (this.#isPerCall(input.keyId)) break;
      }
      if (!this.#isPerCall(input.keyId)) {
        const drawn = this.#draw(slot, input.amountNanoUsd);
        if (drawn) return drawn;
      }
    }
    await this.perCall.reserve(input, context);
    return { reservation_id: input.reservationId };
  }

  #draw(slot: Slot, amount: number): BudgetClaim | undefined {
    const lease = slot.lease;
    if (!lease || lease.expiresAt <= this.#now() || lease.remaining < amount) return undefined;
    lease.remaining -= amount;
    lease.calls += 1;
    return { lease_id: lease.id, lease_nano_usd: amount };
  }

  async #renew(slot: Slot, input: ReserveInput, context: HoldContext | undefined): Promise<void> {
    const epoch = slot.epoch;
    const previous = slot.lease;
    slot.lease = undefined;
    if (previous) {
      this.#live.delete(previous.id);
      slot.lastCalls = previous.calls;
    }
    const calls = Math.min(this.#maxCalls, Math.max(this.#minCalls, 2 * slot.lastCalls));
    this.#sequence += 1;
    const leaseId = `${this.#prefix}${this.#sequence.toString(36)}`;
    let answer: { grantedNanoUsd: number; perCall: boolean };
    try {
      answer = await this.client.leaseBudget(
        {
          keyId: input.keyId,
          group: input.group,
          leaseId,
          minNanoUsd: input.amountNanoUsd,
          wantNanoUsd: input.amountNanoUsd * calls,
          ...(previous ? { previous: { leaseId: previous.id, unusedNanoUsd: previous.remaining } } : {}),
        },
        // Bounded by the call that started it: a hung accounting fails it within that call's
        // deadline. Calls waiting on it then renew under their own (claim's rounds).
        { ...context },
      );
    } catch (error) {
      // budget_exceeded comes after accounting took the previous lease's rest back; any other
      // failure left it held, so it stays here to go back when it expires.
      if (previous && !(error instanceof GatewayError && error.code === 'budget_exceeded')) {
        // Dropped meanwhile: it is not to be drawn from again, so its rest goes back now.
        if (slot.epoch !== epoch) this.#giveBack(previous);
        else {
          slot.lease ??= previous;
          this.#live.set(previous.id, previous);
        }
      }
      throw error;
    }
    const { grantedNanoUsd, perCall } = answer;
    if (slot.epoch !== epoch) {
      // Granted under the terms before a drop: given back whole; the waiting calls renew afresh.
      if (!perCall) this.#release(input.keyId, leaseId, grantedNanoUsd);
      return;
    }
    if (perCall) {
      if (this.#perCallKeys.size >= PER_CALL_KEYS_MAX) this.#perCallKeys.clear();
      this.#perCallKeys.set(input.keyId, this.#now() + PER_CALL_MEMORY_MS);
      return;
    }
    const lease: Lease = { id: leaseId, keyId: input.keyId, remaining: grantedNanoUsd, calls: 0, expiresAt: this.#now() + this.#ttlMs };
    slot.lease = lease;
    this.#live.set(leaseId, lease);
  }

  async unclaim(keyId: string, claim: BudgetClaim, context?: HoldContext): Promise<void> {
    if ('reservation_id' in claim) {
      await this.perCall.release({ keyId, reservationId: claim.reservation_id }, context);
      return;
    }
    const lease = this.#live.get(claim.lease_id);
    if (lease) lease.remaining += claim.lease_nano_usd;
    else
      await this.client.releaseReservation(
        { keyId, reservationId: claim.lease_id, amountNanoUsd: claim.lease_nano_usd },
        traceOnly(context),
      );
  }

  /** Gives back the undrawn part of every expired lease (calls still running keep their parts). */
  #returnExpired(): void {
    const now = this.#now();
    for (const [slotKey, slot] of this.#slots) {
      const lease = slot.lease;
      if (slot.renewing || (lease && lease.expiresAt > now)) continue;
      this.#slots.delete(slotKey);
      if (lease) this.#giveBack(lease);
    }
  }

  #giveBack(lease: Lease): void {
    this.#live.delete(lease.id);
    this.#release(lease.keyId, lease.id, lease.remaining);
  }

  /**
   * Accounting releases the part on the key and on the team the lease was held on (its hold
   * records that team), so a key moved since gives back to the team it was taken from.
   */
  #release(keyId: string, leaseId: string, amount: number): void {
    if (amount <= 0) return;
    // A lost give-back is returned by accounting's lease sweep.
    this.client.releaseReservation({ keyId, reservationId: leaseId, amountNanoUsd: amount }).catch(() => undefined);
  }

  /**
   * A key or team changed (budget, team, models, rate limits): the leases it may concern go,
   * their undrawn parts back to accounting, and the next call renews under the new terms.
   * A change naming a team drops every lease: a lease does not know its key's team. Calls in
   * flight keep their drawn parts; their spend settles them.
   */
  forget(change: Pick<KeyChangedEvent, 'key_id' | 'team_id'>): void {
    const everyKey = Boolean(change.team_id);
    if (everyKey) this.#perCallKeys.clear();
    else this.#perCallKeys.delete(change.key_id);
    // Slots stay (the expiry sweep removes empty ones): a claim may be waiting on one's renewal.
    for (const slot of this.#slots.values()) {
      if (!everyKey && slot.keyId !== change.key_id) continue;
      slot.epoch += 1;
      const lease = slot.lease;
      if (!lease) continue;
      slot.lease = undefined;
      slot.lastCalls = lease.calls;
      this.#giveBack(lease);
    }
  }

  /** Gives back every lease's undrawn part (shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    const returns: Promise<void>[] = [];
    for (const slot of this.#slots.values()) {
      const lease = slot.lease;
      if (!lease) continue;
      this.#live.delete(lease.id);
      if (lease.remaining > 0)
        returns.push(
          this.client
            .releaseReservation({ keyId: lease.keyId, reservationId: lease.id, amountNanoUsd: lease.remaining })
            .catch(() => undefined),
        );
    }
    this.#slots.clear();
    await Promise.all(returns);
  }
}
