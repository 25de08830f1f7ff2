import { GatewayError } from '@gateway/errors';
import type { Hold, SpendMove } from './balances.js';
import type { KeyRecord, KeyRepository } from './keys.js';
import { periodEndOf } from './periods.js';
import type { TeamRecord, TeamRepository } from './teams.js';

// Where a call's money moves: holds, settlements and releases on its key and, when the key is
// in a team with a budget, on the team too, under the same hold id. The team is held first and
// given back when the key's hold does not fit, so neither budget is ever committed beyond
// itself however many calls of however many keys race. Balances live on the key and team
// documents in the store, in both modes (docs/architecture.md, "Budget authority").

/** What a hold id may be: it becomes part of a field path (`holds.<id>`), so nothing else is let near the store. */
export const HOLD_ID = /^[A-Za-z0-9_-]{1,128}$/;

const ROUNDS = 4;

function usd(nanos: number): string {
  return (nanos / 1e9).toFixed(6);
}

function resetNote(account: KeyRecord | TeamRecord): string {
  const end = periodEndOf(account.budget_period, account.period_start_ms);
  return end === undefined ? '' : ` Its ${account.budget_period} budget resets at ${new Date(end).toISOString()}.`;
}

/** 422 budget_exceeded saying whose budget ran out. */
export function budgetExceeded(account: KeyRecord | TeamRecord, amount: number, whose: 'key' | 'team'): GatewayError {
  const subject = whose === 'key' ? 'This API key' : `The team "${(account as TeamRecord).name}" of this API key`;
  return new GatewayError('budget_exceeded', {
    message: `${subject} has no budget left for this request (it needs up to ${usd(amount)} USD).${resetNote(account)}`,
  });
}

/** A call's spend as a batch settles it: `settle`'s arguments. */
export interface CallSpend {
  /** The key as the batch read it. */
  key: KeyRecord;
  holdId: string | undefined;
  cost: number;
  /** A lease's drawn part; undefined for a single call's hold (all of it ends). */
  part: number | undefined;
}

export class BudgetBook {
  constructor(
    private readonly keys: KeyRepository,
    private readonly teams: TeamRepository,
  ) {}

  /** The key's team if it has one (deleted teams included: their keys' calls are refused elsewhere). */
  async teamOf(key: KeyRecord): Promise<TeamRecord | null> {
    return key.team_id ? this.teams.find(key.team_id) : null;
  }

  /**
   * Holds `amount` under `holdId` on the key and, when its team has a budget, on the team.
   * Holding an id already held is a no-op. Returns what the key has available after;
   * budget_exceeded names the budget that did not fit.
   */
  async hold(key: KeyRecord, team: TeamRecord | null, holdId: string, amount: number, group: string): Promise<number> {
    let currentKey = key;
    let currentTeam = team;
    for (let round = 0; round < ROUNDS; round += 1) {
      currentKey = await this.keys.balances.current(currentKey);
      if (currentKey.holds?.[holdId]) return currentKey.available_nano_usd;
      if (currentTeam) currentTeam = await this.teams.balances.current(currentTeam);
      const teamHeld = currentTeam?.has_budget === true;
      if (currentTeam && teamHeld && !currentTeam.holds?.[holdId]) {
        const held = await this.teams.balances.hold(currentTeam, holdId, amount, { group });
        if (!held) {
          const fresh = await this.teams.find(currentTeam._id);
          if (fresh && fresh.period_start_ms !== currentTeam.period_start_ms) {
            currentTeam = fresh;
            continue;
          }
          throw budgetExceeded(fresh ?? currentTeam, amount, 'team');
        }
      }
      const held = await this.keys.balances.hold(currentKey, holdId, amount, {
        group,
        ...(currentTeam ? { team: currentTeam._id, team_period: currentTeam.period_start_ms, team_held: teamHeld } : {}),
      });
      if (held) return held.available_nano_usd;
      if (currentTeam && teamHeld) await this.teams.balances.draw(currentTeam._id, holdId, undefined, 0);
      const fresh = await this.keys.get(currentKey._id);
      if (fresh.holds?.[holdId]) return fresh.available_nano_usd;
      if (fresh.revoked_at !== null) throw new GatewayError('invalid_api_key');
      if (fresh.period_start_ms === currentKey.period_start_ms) throw budgetExceeded(fresh, amount, 'key');
      currentKey = fresh;
    }
    throw new GatewayError('service_unavailable', { message: 'The budget kept changing under this request; retry it.' });
  }

  /** What can be held for the key now: its available, and its team's when the team has a budget. */
  async available(key: KeyRecord, team: TeamRecord | null): Promise<number> {
    const currentKey = await this.keys.current(key._id);
    if (!team?.has_budget) return currentKey.available_nano_usd;
    const currentTeam = await this.teams.balances.current((await this.teams.find(team._id)) ?? team);
    return Math.min(currentKey.available_nano_usd, currentTeam.available_nano_usd);
  }

  /**
   * Records `cost` spent by a call. When its hold is still there, `part` of it (all when
   * undefined: a single call; a lease's drawn part otherwise) ends in the same step, on the key
   * and on the team it was held on; otherwise the cost is plain spend on the key and its team.
   * `key` as the caller just read it.
   */
  async settle(key: KeyRecord, holdId: string | undefined, cost: number, part?: number): Promise<void> {
    if (holdId) {
      const hold = await this.keys.balances.draw(key._id, holdId, part, cost, key);
      if (hold) {
        if (hold.team) await this.#teamSettle(hold.team, holdId, hold, part, cost);
        return;
      }
    }
    await this.keys.balances.spend(key._id, cost);
    if (key.team_id) await this.teams.balances.spend(key.team_id, cost);
  }

  /**
   * Settles a batch of calls: the outcome of `settle` for each call in turn, written as one
   * update per key (all its calls) and then one per team (all its calls' parts). Returns, per
   * call, the team it counts for as the ledger records it: its hold's, else its key's.
   */
  async settleBatch(calls: readonly CallSpend[]): Promise<(string | null)[]> {
    const teamOf: (string | null)[] = calls.map(() => null);
    const callsByKey = new Map<string, number[]>();
    for (const [index, call] of calls.entries()) {
      const indexes = callsByKey.get(call.key._id);
      if (indexes) indexes.push(index);
      else callsByKey.set(call.key._id, [index]);
    }
    const teamMoves = new Map<string, SpendMove[]>();
    const toTeam = (teamId: string, move: SpendMove) => {
      const moves = teamMoves.get(teamId);
      if (moves) moves.push(move);
      else teamMoves.set(teamId, [move]);
    };
    for (const [keyId, indexes] of callsByKey) {
      const key = (calls[indexes[0] as number] as CallSpend).key;
      const moves = indexes.map((i) => {
        const call = calls[i] as CallSpend;
        return { holdId: call.holdId, part: call.part, cost: call.cost };
      });
      const { drawn } = await this.keys.balances.applyMoves(keyId, moves, key);
      for (const [n, index] of indexes.entries()) {
        const call = calls[index] as CallSpend;
        const hold = drawn[n];
        if (hold) {
          // As #teamSettle: the team's own hold when it has one, else spend in the hold's team period.
          teamOf[index] = hold.team ?? null;
          if (hold.team)
            toTeam(hold.team, {
              holdId: hold.team_held ? call.holdId : undefined,
              part: call.part,
              cost: call.cost,
              heldPeriod: hold.team_period,
            });
        } else {
          teamOf[index] = key.team_id ?? null;
          if (key.team_id) toTeam(key.team_id, { cost: call.cost });
        }
      }
    }
    const teams = await this.teams.findMany([...teamMoves.keys()]);
    for (const [teamId, moves] of teamMoves) await this.teams.balances.applyMoves(teamId, moves, teams.get(teamId));
    return teamOf;
  }

  async #teamSettle(teamId: string, holdId: string, hold: Hold, part: number | undefined, cost: number): Promise<void> {
    if (hold.team_held && (await this.teams.balances.draw(teamId, holdId, part, cost))) return;
    await this.teams.balances.spend(teamId, cost, hold.team_period);
  }

  /**
   * A redelivered event whose first delivery stopped midway (a crash): settles what is still
   * held under `holdId`, on the key or, when the key's side was done, on the team.
   */
  async settleIfHeld(keyId: string, teamId: string | null, holdId: string, cost: number): Promise<void> {
    const hold = await this.keys.balances.draw(keyId, holdId, undefined, cost);
    if (hold?.team) await this.#teamSettle(hold.team, holdId, hold, undefined, cost);
    else if (!hold && teamId) await this.teams.balances.draw(teamId, holdId, undefined, cost);
  }

  /**
   * Gives a hold back: `part` of it, or all of it when `part` is undefined or covers it.
   * `keyId` (empty when the caller did not say) spares a scan of every key for the hold.
   */
  async release(holdId: string, part?: number, keyId = ''): Promise<void> {
    // An id that cannot be a hold is not held: nothing to give back.
    if (!HOLD_ID.test(holdId)) return;
    const key = await this.keys.findByHold(holdId, keyId);
    if (!key) return;
    const hold = await this.keys.balances.draw(key._id, holdId, part, 0);
    if (hold?.team && hold.team_held) await this.teams.balances.draw(hold.team, holdId, part, 0);
  }

  /** Gives back holds older than their maximum age, on keys and teams; returns how many. */
  async sweep(maxAgeOf: (holdId: string) => number, now: number): Promise<number> {
    const fromKeys = await this.keys.balances.sweep(maxAgeOf, now);
    for (const { holdId, hold } of fromKeys) {
      if (hold.team && hold.team_held) await this.teams.balances.draw(hold.team, holdId, undefined, 0);
    }
    // Team holds whose key hold was never taken (a crash between the two).
    const fromTeams = await this.teams.balances.sweep(maxAgeOf, now);
    return fromKeys.length + fromTeams.length;
  }
}
