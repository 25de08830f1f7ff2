import type { Collection, Doc, Filter, Update } from '@gateway/store';
import { type BudgetPeriod, periodEndOf, periodStartOf } from './periods.js';

// The balance of an account (a key or a team) and every way money moves on it. The balance
// lives on the account's own document: `available` = budget − spent this period − reserved is
// kept in step with every change, so "does this call fit" is one conditional atomic update
// (stores cannot compare two fields in a filter). Every other change reads the document and
// writes back with a filter asserting what it read (the hold's amount, the period), retrying
// when another writer came first; amounts move by $inc, so writers on other holds of the same
// account never conflict.

/** A call's worst-case price held on an account until its spend event settles it. */
export interface Hold {
  amount: number;
  /** Unix ms it was taken: how the sweeper tells a hold left by a crashed caller. */
  at: number;
  group: string;
  /**
   * The account's period (its start) when the hold was taken: the call's cost belongs to it.
   * Absent on holds taken before budget periods existed: those count in the current period.
   */
  period?: number;
  /** On a key's hold: the team the call counts against, and that team's period at the time. */
  team?: string;
  team_period?: number;
  /** The same hold is also held on the team (the team has a budget). */
  team_held?: boolean;
}

/** The balance fields keys and teams share. */
export interface AccountRecord extends Doc {
  budget_nano_usd: number;
  budget_period: BudgetPeriod;
  /** The current period's start (Unix ms); the creation for lifetime budgets. */
  period_start_ms: number;
  period_spent_nano_usd: number;
  /** Lifetime spend. */
  spent_nano_usd: number;
  reserved_nano_usd: number;
  /** budget − period spent − reserved; below zero after a budget was lowered under the spend. */
  available_nano_usd: number;
  /** By hold id (a reservation or lease id). */
  holds?: Record<string, Hold>;
  created_at: Date;
}

/**
 * One spend event's money on one account, as a batch applies it: when `holdId` names a hold the
 * account still has, `part` of it (all when undefined) ends and `cost` is charged in the hold's
 * period; otherwise `cost` is plain spend, charged in the current period unless `heldPeriod`
 * (the period a hold elsewhere was taken in) has ended.
 */
export interface SpendMove {
  holdId?: string | undefined;
  part?: number | undefined;
  cost: number;
  heldPeriod?: number | undefined;
}

/** Conditional writes that keep losing to other writers this many times give up (an error, retried by the caller). */
const MAX_ATTEMPTS = 16;

export class ContentionError extends Error {
  override readonly name = 'ContentionError';
  readonly code = 'contention';
  constructor(account: string) {
    super(`the balance of ${account} kept changing under this update; try again`);
  }
}

export class Balances<T extends AccountRecord> {
  constructor(
    private readonly accounts: Collection<T>,
    /** What must hold for new holds to be taken (a key not revoked, a team not deleted). */
    private readonly active: Filter,
    private readonly clock: () => number,
  ) {}

  async find(id: string): Promise<T | null> {
    return id ? this.accounts.findOne({ _id: id }) : null;
  }

  /**
   * The account in its current period: when a period boundary passed since its last change, the
   * new period starts (period spend back to zero, what it spent returned to available), once
   * however many callers see it at the same time.
   */
  async current(account: T, now = this.clock()): Promise<T> {
    let seen = account;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const start = periodStartOf(seen.budget_period, now, seen.created_at.getTime());
      if (seen.budget_period === null || start <= seen.period_start_ms) return seen;
      const rolled = await this.accounts.findOneAndUpdate(
        { _id: seen._id, period_start_ms: seen.period_start_ms, period_spent_nano_usd: seen.period_spent_nano_usd },
        { $set: { period_start_ms: start, period_spent_nano_usd: 0 }, $inc: { available_nano_usd: seen.period_spent_nano_usd } },
      );
      if (rolled) return rolled;
      const fresh = await this.find(seen._id);
      if (!fresh) return seen;
      seen = fresh;
    }
    throw new ContentionError(account._id);
  }

  /**
   * Holds `amount` under `holdId` if it fits in the account's period `account.period_start_ms`
   * and is not held yet: one conditional atomic update. Null when it did not (no room, held
   * already, or the period moved on: the caller looks again).
   */
  async hold(
    account: T,
    holdId: string,
    amount: number,
    details: Pick<Hold, 'group' | 'team' | 'team_period' | 'team_held'>,
    now = this.clock(),
  ): Promise<T | null> {
    const hold: Hold = { amount, at: now, group: details.group, period: account.period_start_ms };
    if (details.team !== undefined) hold.team = details.team;
    if (details.team_period !== undefined) hold.team_period = details.team_period;
    if (details.team_held) hold.team_held = true;
    return this.accounts.findOneAndUpdate(
      {
        _id: account._id,
        ...this.active,
        // A lifetime budget has one period forever: nothing to assert.
        ...(account.budget_period ? { period_start_ms: account.period_start_ms } : {}),
        available_nano_usd: { $gte: amount },
        [`holds.${holdId}`]: { $exists: false },
      },
      { $inc: { reserved_nano_usd: amount, available_nano_usd: -amount }, $set: { [`holds.${holdId}`]: hold } },
    );
  }

  /**
   * Takes `part` of a hold (all of it when `part` is undefined or covers it) and records `cost`
   * as spend, in one conditional update. The cost counts in the period the hold was taken in:
   * a hold from a period that has ended charges only the lifetime spend. Returns the hold as it
   * was, or undefined (having done nothing) when it is not there. `seen`: the account as the
   * caller just read it.
   */
  async draw(id: string, holdId: string, part: number | undefined, cost: number, seen?: T): Promise<Hold | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      // The caller's fresh read spares the first one (a stale one only costs a retry).
      const account = attempt === 0 && seen?.holds?.[holdId] ? seen : await this.find(id);
      const hold = account?.holds?.[holdId];
      if (!account || !hold) return undefined;
      const taken = part === undefined || part >= hold.amount ? hold.amount : part;
      const ends = taken === hold.amount;
      const charged = hold.period === undefined || hold.period === account.period_start_ms ? cost : 0;
      const inc: Record<string, number> = {
        spent_nano_usd: cost,
        period_spent_nano_usd: charged,
        reserved_nano_usd: -taken,
        available_nano_usd: taken - charged,
      };
      if (!ends) inc[`holds.${holdId}.amount`] = -taken;
      const update: Update = ends ? { $inc: inc, $unset: { [`holds.${holdId}`]: true } } : { $inc: inc };
      const filter = { _id: id, [`holds.${holdId}.amount`]: hold.amount, period_start_ms: account.period_start_ms };
      if (await this.accounts.updateOne(filter, update)) return hold;
    }
    throw new ContentionError(id);
  }

  /**
   * Spend with nothing held for it. `heldPeriod` (the period a call's hold on another account
   * was taken in) keeps a call from an ended period out of the current one; without it the
   * spend counts in the current period.
   */
  async spend(id: string, cost: number, heldPeriod?: number): Promise<void> {
    let account = await this.find(id);
    for (let attempt = 0; account && attempt < MAX_ATTEMPTS; attempt += 1) {
      account = await this.current(account);
      const charged = heldPeriod === undefined || heldPeriod >= account.period_start_ms ? cost : 0;
      const done = await this.accounts.updateOne(
        { _id: id, period_start_ms: account.period_start_ms },
        { $inc: { spent_nano_usd: cost, period_spent_nano_usd: charged, available_nano_usd: -charged } },
      );
      if (done) return;
      account = await this.find(id);
    }
    if (account) throw new ContentionError(id);
  }

  /**
   * Applies spend moves to one account in one conditional update: the same outcome as `draw`
   * and `spend` called for each move in turn (a lease drawn from by several moves shrinks by
   * each, and a hold a move ended is plain spend for the next), with one write instead of one
   * per move. A period that came due starts first. The filter asserts the period and every
   * touched hold's amount as read; another writer in between makes it read and compute again.
   * Returns, per move, the hold it drew from as it was before the batch (undefined for plain
   * spend), and whether the account exists (a missing one is left alone, as `spend` does).
   */
  async applyMoves(id: string, moves: readonly SpendMove[], seen?: T): Promise<{ found: boolean; drawn: (Hold | undefined)[] }> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const read = attempt === 0 && seen ? seen : await this.find(id);
      if (!read) return { found: false, drawn: moves.map(() => undefined) };
      const account = await this.current(read);
      const holds = account.holds ?? {};
      /** What is left of each hold a move drew from; absent once a move ended it. */
      const left = new Map<string, number>();
      const ended = new Set<string>();
      const drawn: (Hold | undefined)[] = [];
      let spent = 0;
      let periodSpent = 0;
      let reserved = 0;
      let available = 0;
      for (const move of moves) {
        const hold = move.holdId && !ended.has(move.holdId) ? holds[move.holdId] : undefined;
        if (move.holdId && hold) {
          const remaining = left.get(move.holdId) ?? hold.amount;
          const taken = move.part === undefined || move.part >= remaining ? remaining : move.part;
          const charged = hold.period === undefined || hold.period === account.period_start_ms ? move.cost : 0;
          spent += move.cost;
          periodSpent += charged;
          reserved -= taken;
          available += taken - charged;
          if (taken === remaining) {
            ended.add(move.holdId);
            left.delete(move.holdId);
          } else {
            left.set(move.holdId, remaining - taken);
          }
          drawn.push(hold);
        } else {
          const charged = move.heldPeriod === undefined || move.heldPeriod >= account.period_start_ms ? move.cost : 0;
          spent += move.cost;
          periodSpent += charged;
          available -= charged;
          drawn.push(undefined);
        }
      }
      const inc: Record<string, number> = {
        spent_nano_usd: spent,
        period_spent_nano_usd: periodSpent,
        reserved_nano_usd: reserved,
        available_nano_usd: available,
      };
      const filter: Record<string, unknown> = { _id: id, period_start_ms: account.period_start_ms };
      const unset: Record<string, true> = {};
      for (const holdId of ended) {
        filter[`holds.${holdId}.amount`] = holds[holdId]?.amount;
        unset[`holds.${holdId}`] = true;
      }
      for (const [holdId, remaining] of left) {
        const amount = holds[holdId]?.amount ?? remaining;
        filter[`holds.${holdId}.amount`] = amount;
        inc[`holds.${holdId}.amount`] = remaining - amount;
      }
      const update: Update = ended.size > 0 ? { $inc: inc, $unset: unset } : { $inc: inc };
      if (await this.accounts.updateOne(filter, update)) return { found: true, drawn };
    }
    throw new ContentionError(id);
  }

  /** Sets the budget; available moves by the difference. */
  async setBudget(id: string, budget: number): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const account = await this.find(id);
      if (!account) return;
      const done = await this.accounts.updateOne(
        { _id: id, budget_nano_usd: account.budget_nano_usd },
        { $set: { budget_nano_usd: budget }, $inc: { available_nano_usd: budget - account.budget_nano_usd } },
      );
      if (done) return;
    }
    throw new ContentionError(id);
  }

  /**
   * Switches the account to periods of kind `period`, starting at the current boundary, with
   * `spentInPeriod(start)` as what it already spent in it (lifetime: its whole spend).
   */
  async setPeriod(id: string, period: BudgetPeriod, spentInPeriod: (start: number) => Promise<number>, now = this.clock()): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const account = await this.find(id);
      if (!account) return;
      const start = periodStartOf(period, now, account.created_at.getTime());
      const spent = period === null ? account.spent_nano_usd : await spentInPeriod(start);
      // By $inc, so spend recorded between the read and this write is kept.
      const delta = spent - account.period_spent_nano_usd;
      const done = await this.accounts.updateOne(
        { _id: id, period_start_ms: account.period_start_ms, budget_period: account.budget_period },
        { $set: { budget_period: period, period_start_ms: start }, $inc: { period_spent_nano_usd: delta, available_nano_usd: -delta } },
      );
      if (done) return;
    }
    throw new ContentionError(id);
  }

  /** Gives back holds older than `maxAgeOf(holdId)`; returns how many. */
  async sweep(maxAgeOf: (holdId: string) => number, now: number): Promise<{ account: string; holdId: string; hold: Hold }[]> {
    const released: { account: string; holdId: string; hold: Hold }[] = [];
    for (const account of await this.accounts.find({ reserved_nano_usd: { $gt: 0 } })) {
      for (const [holdId, hold] of Object.entries(account.holds ?? {})) {
        if (now - hold.at <= maxAgeOf(holdId)) continue;
        const ended = await this.draw(account._id, holdId, undefined, 0);
        if (ended) released.push({ account: account._id, holdId, hold: ended });
      }
    }
    return released;
  }
}

/** An account's figures as of `now`, counting a reset that came due but is not written yet. */
export interface BalanceView {
  periodStartMs: number;
  /** Undefined for lifetime budgets. */
  resetsAtMs: number | undefined;
  /** Spend in the current period. */
  spent: number;
  lifetimeSpent: number;
  reserved: number;
  /** What is left to hold: budget − period spend − reserved (below zero after a budget was lowered). */
  available: number;
}

export function balanceView(account: AccountRecord, now: number): BalanceView {
  const period = account.budget_period ?? null;
  const start = periodStartOf(period, now, account.created_at.getTime());
  const due = period !== null && start > account.period_start_ms;
  const periodStartMs = due ? start : account.period_start_ms;
  const spent = due ? 0 : account.period_spent_nano_usd;
  return {
    periodStartMs,
    resetsAtMs: periodEndOf(period, periodStartMs),
    spent,
    lifetimeSpent: account.spent_nano_usd,
    reserved: account.reserved_nano_usd,
    available: account.budget_nano_usd - spent - account.reserved_nano_usd,
  };
}
