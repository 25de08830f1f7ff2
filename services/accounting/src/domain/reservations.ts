import { LEASE_PREFIX } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { Collection, Doc, DocumentStore } from '@gateway/store';
import type { KeyRecord, KeyRepository } from './keys.js';
import { BudgetBook, budgetExceeded, HOLD_ID } from './budget-book.js';
import type { TeamRecord, TeamRepository } from './teams.js';

// Budget reservations and rate limits of keys and teams. A call first holds its worst-case
// price on its key (and its team) with one conditional atomic update each (available >= price,
// this hold not there yet); the spend event settles the hold to the real cost, a failure
// releases it, and a sweeper releases holds a crashed caller left behind.

interface RateWindow extends Doc {
  count: number;
  tokens?: number;
  created_at: Date;
}

export const RATE_COLLECTION = 'accounting_rate_windows';
const WINDOW_MS = 60_000;
export { LEASE_PREFIX };
/**
 * A lease left by a caller that crashed goes back after this long: longer than any call drawn
 * from it runs (a later spend event for it is still recorded, as plain spend).
 */
export const LEASE_MAX_AGE_MS = 15 * 60_000;

export class Reservations {
  private constructor(
    private readonly windows: Collection<RateWindow>,
    /** Where balances move: settling, releasing and reading figures go to it directly. */
    readonly book: BudgetBook,
    private readonly clock: () => number,
  ) {}

  /** Balances live on the key and team documents and rate windows in their own collection, all in the store. */
  static async open(
    store: DocumentStore,
    keys: KeyRepository,
    teams: TeamRepository,
    clock: () => number = Date.now,
  ): Promise<Reservations> {
    const windows = await store.collection<RateWindow>(RATE_COLLECTION, [{ field: 'created_at', expireAfterSeconds: 180 }]);
    return new Reservations(windows, new BudgetBook(keys, teams), clock);
  }

  /** Adds to an account's current minute: one request, or tokens used. */
  async #add(accountId: string, count: number, tokens: number, now: number): Promise<{ count: number; tokens: number }> {
    const id = `${accountId}|${Math.floor(now / WINDOW_MS)}`;
    const doc = await this.windows.findOneAndUpdate(
      { _id: id },
      { $inc: { count, tokens }, $set: { created_at: new Date(now) } },
      { upsert: true },
    );
    return { count: doc?.count ?? count, tokens: doc?.tokens ?? tokens };
  }

  /**
   * Counts one request in the current minute of the key and of its team: 429 with Retry-After
   * past either's rpm, or once the tokens their calls used this minute reached either's tpm
   * (tokens are known only afterwards, so the call that crosses the limit completes and the next
   * ones wait).
   */
  async countRequest(
    key: Pick<KeyRecord, '_id' | 'rpm' | 'tpm'>,
    team: Pick<TeamRecord, '_id' | 'rpm' | 'tpm'> | null = null,
  ): Promise<void> {
    const now = this.clock();
    await this.#count(key, 'this API key', now);
    if (team) await this.#count(team, 'the team of this API key', now);
  }

  async #count(account: { _id: string; rpm: number; tpm?: number }, whose: string, now: number): Promise<void> {
    if (!account.rpm && !account.tpm) return;
    const window = Math.floor(now / WINDOW_MS);
    const { count, tokens } = await this.#add(account._id, 1, 0, now);
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    if (account.rpm && count > account.rpm) {
      throw new GatewayError('rate_limit_exceeded', {
        message: `Rate limit reached: ${account.rpm} requests per minute for ${whose}.`,
        retryAfterSeconds,
      });
    }
    if (account.tpm && tokens >= account.tpm) {
      throw new GatewayError('rate_limit_exceeded', {
        message: `Rate limit reached: ${account.tpm} tokens per minute for ${whose}.`,
        retryAfterSeconds,
      });
    }
  }

  /** Records the tokens a finished call used in the minute it ended, for its key and its team. */
  async countTokens(keyId: string, teamId: string | null, tokens: number, at: number): Promise<void> {
    if (tokens <= 0) return;
    await this.#add(keyId, 0, tokens, at);
    if (teamId) await this.#add(teamId, 0, tokens, at);
  }

  /**
   * Records the tokens of a batch's finished calls: one write per account and minute, however
   * many calls ended in it. `uses` as countTokens takes them, one per call.
   */
  async countTokensOf(uses: readonly { keyId: string; teamId: string | null; tokens: number; at: number }[]): Promise<void> {
    const windows = new Map<string, { tokens: number; at: number }>();
    const add = (accountId: string, tokens: number, at: number) => {
      const id = `${accountId}|${Math.floor(at / WINDOW_MS)}`;
      const window = windows.get(id);
      if (window) {
        window.tokens += tokens;
        window.at = Math.max(window.at, at);
      } else {
        windows.set(id, { tokens, at });
      }
    };
    for (const use of uses) {
      if (use.tokens <= 0) continue;
      add(use.keyId, use.tokens, use.at);
      if (use.teamId) add(use.teamId, use.tokens, use.at);
    }
    for (const [id, { tokens, at }] of windows) {
      await this.windows.updateOne({ _id: id }, { $inc: { count: 0, tokens }, $set: { created_at: new Date(at) } }, { upsert: true });
    }
  }

  /** Holds `amount` for the key (and its team) under `id`; 422 budget_exceeded when it does not fit. Asking again for a held id is a no-op. */
  async reserve(key: KeyRecord, team: TeamRecord | null, group: string, amount: number, id: string): Promise<number> {
    if (!HOLD_ID.test(id))
      throw new GatewayError('invalid_request', { param: 'reservation_id', message: 'reservation ids are 1-128 letters, digits, - and _' });
    if (!Number.isSafeInteger(amount) || amount < 0)
      throw new GatewayError('invalid_request', { param: 'amount_nano_usd', message: 'amount must be a whole number >= 0' });
    return this.book.hold(key, team, id, amount, group);
  }

  /** Whether the key's calls must each be counted here (it or its team has rate limits): then no lease. */
  static perCall(key: KeyRecord, team: TeamRecord | null): boolean {
    return Boolean(key.rpm || key.tpm || team?.rpm || team?.tpm);
  }

  /**
   * Holds a lease: up to `want`, at least `min` (less available is budget_exceeded), and no more
   * than half of what the key (and its team) has left, so other callers keep some while it runs
   * low. The caller's previous lease gives back its undrawn part first. Keys with rate limits
   * (their own or their team's) get `perCall`: each of their calls must be counted here.
   */
  async lease(
    key: KeyRecord,
    team: TeamRecord | null,
    group: string,
    leaseId: string,
    min: number,
    want: number,
    previous?: { leaseId: string; unused: number },
  ): Promise<{ granted: number; perCall: boolean }> {
    if (Reservations.perCall(key, team)) return { granted: 0, perCall: true };
    if (!HOLD_ID.test(leaseId) || !leaseId.startsWith(LEASE_PREFIX)) {
      throw new GatewayError('invalid_request', {
        param: 'lease_id',
        message: `lease ids are ${LEASE_PREFIX} then letters, digits, - and _`,
      });
    }
    for (const amount of [min, want]) {
      if (!Number.isSafeInteger(amount) || amount < 0)
        throw new GatewayError('invalid_request', { param: 'amount_nano_usd', message: 'amounts must be whole numbers >= 0' });
    }
    if (previous) await this.book.release(previous.leaseId, previous.unused, key._id);
    // Another caller may take what was seen between the read and the conditional hold: look again.
    let lastError: GatewayError | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const available = await this.book.available(key, team);
      if (available < min) break;
      const granted = Math.min(Math.max(want, min), Math.max(min, Math.floor(available / 2)));
      try {
        await this.book.hold(key, team, leaseId, granted, group);
        return { granted, perCall: false };
      } catch (error) {
        if (!(error instanceof GatewayError && error.code === 'budget_exceeded')) throw error;
        lastError = error;
      }
    }
    throw lastError ?? (await this.#exceeded(key, team, min));
  }

  /** budget_exceeded naming the budget that is short of `amount`. */
  async #exceeded(key: KeyRecord, team: TeamRecord | null, amount: number): Promise<GatewayError> {
    const currentKey = await this.book.available(key, null);
    if (currentKey < amount || !team) return budgetExceeded(key, amount, 'key');
    return budgetExceeded(team, amount, 'team');
  }

  /** Gives back every lease (their holder is known to be gone); returns how many. */
  async releaseLeases(now = this.clock()): Promise<number> {
    return this.book.sweep((id) => (id.startsWith(LEASE_PREFIX) ? -1 : Number.POSITIVE_INFINITY), now);
  }

  /** Releases holds older than `maxAgeMs` (their caller crashed); returns how many. */
  async sweep(maxAgeMs: number, now = this.clock()): Promise<number> {
    const leaseMaxAge = Math.min(maxAgeMs, LEASE_MAX_AGE_MS);
    return this.book.sweep((id) => (id.startsWith(LEASE_PREFIX) ? leaseMaxAge : maxAgeMs), now);
  }
}
