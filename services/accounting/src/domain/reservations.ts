import { LEASE_PREFIX } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { Collection, Doc, DocumentStore } from '@gateway/store';
import type { KeyRecord, KeyRepository } from './keys.js';
import { BudgetBook, HOLD_ID } from './budget-book.js';

// Budget reservations and per-key rate limits. A call first holds its worst-case price on its
// key with one conditional atomic update (available >= price, this hold not there yet); the
// spend event settles the hold to the real cost in one atomic update of the same document, a
// failure releases it, and a sweeper releases holds a crashed caller left behind. Everything
// that moves money touches one document at a time, so no transaction is needed.

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
  ) {}

  /** Balances live on the key documents and rate windows in their own collection, both in the store. */
  static async open(store: DocumentStore, keys: KeyRepository): Promise<Reservations> {
    const windows = await store.collection<RateWindow>(RATE_COLLECTION, [{ field: 'created_at', expireAfterSeconds: 180 }]);
    return new Reservations(windows, new BudgetBook(keys));
  }

  /** Adds to the key's current minute: one request, or tokens used. */
  async #add(keyId: string, count: number, tokens: number, now: number): Promise<{ count: number; tokens: number }> {
    const id = `${keyId}|${Math.floor(now / WINDOW_MS)}`;
    const doc = await this.windows.findOneAndUpdate(
      { _id: id },
      { $inc: { count, tokens }, $set: { created_at: new Date(now) } },
      { upsert: true },
    );
    return { count: doc?.count ?? count, tokens: doc?.tokens ?? tokens };
  }

  /**
   * Counts one request in the key's current minute: 429 with Retry-After past its rpm, or once
   * the tokens its calls used this minute reached its tpm (tokens are known only afterwards, so
   * the call that crosses the limit completes and the next ones wait).
   */
  async countRequest(key: Pick<KeyRecord, '_id' | 'rpm' | 'tpm'>, now = Date.now()): Promise<void> {
    if (!key.rpm && !key.tpm) return;
    const window = Math.floor(now / WINDOW_MS);
    const { count, tokens } = await this.#add(key._id, 1, 0, now);
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    if (key.rpm && count > key.rpm) {
      throw new GatewayError('rate_limit_exceeded', {
        message: `Rate limit reached: ${key.rpm} requests per minute for this API key.`,
        retryAfterSeconds,
      });
    }
    if (key.tpm && tokens >= key.tpm) {
      throw new GatewayError('rate_limit_exceeded', {
        message: `Rate limit reached: ${key.tpm} tokens per minute for this API key.`,
        retryAfterSeconds,
      });
    }
  }

  /** Records the tokens a finished call used in the minute it ended. */
  async countTokens(keyId: string, tokens: number, at: number): Promise<void> {
    if (tokens > 0) await this.#add(keyId, 0, tokens, at);
  }

  /** Holds `amount` of the key's budget under `id`; 422 budget_exceeded when it does not fit. Asking again for a held id is a no-op. */
  async reserve(key: KeyRecord, group: string, amount: number, id: string): Promise<number> {
    if (!HOLD_ID.test(id))
      throw new GatewayError('invalid_request', { param: 'reservation_id', message: 'reservation ids are 1-128 letters, digits, - and _' });
    if (!Number.isSafeInteger(amount) || amount < 0)
      throw new GatewayError('invalid_request', { param: 'amount_nano_usd', message: 'amount must be a whole number >= 0' });
    const available = await this.book.hold(key, id, amount, group);
    if (available !== undefined) return available;
    throw new GatewayError('budget_exceeded', {
      message: `This API key has no budget left for this request (it needs up to ${(amount / 1e9).toFixed(6)} USD).`,
    });
  }

  /**
   * Holds a lease: up to `want`, at least `min` (less available is budget_exceeded), and no more
   * than half of what the key has left, so other callers keep some while it runs low. The
   * caller's previous lease gives back its undrawn part first. Keys with rate limits get
   * `perCall`: each of their calls must be counted here.
   */
  async lease(
    key: KeyRecord,
    group: string,
    leaseId: string,
    min: number,
    want: number,
    previous?: { leaseId: string; unused: number },
  ): Promise<{ granted: number; perCall: boolean }> {
    if (key.rpm || key.tpm) return { granted: 0, perCall: true };
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
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const available = await this.book.available(key);
      if (available < min) break;
      const granted = Math.min(Math.max(want, min), Math.max(min, Math.floor(available / 2)));
      if ((await this.book.hold(key, leaseId, granted, group)) !== undefined) return { granted, perCall: false };
    }
    throw new GatewayError('budget_exceeded', {
      message: `This API key has no budget left for this request (it needs up to ${(min / 1e9).toFixed(6)} USD).`,
    });
  }

  /** Gives back every lease (their holder is known to be gone); returns how many. */
  async releaseLeases(now = Date.now()): Promise<number> {
    return this.book.sweep((id) => (id.startsWith(LEASE_PREFIX) ? -1 : Number.POSITIVE_INFINITY), now);
  }

  /** Releases holds older than `maxAgeMs` (their caller crashed); returns how many. */
  async sweep(maxAgeMs: number, now = Date.now()): Promise<number> {
    const leaseMaxAge = Math.min(maxAgeMs, LEASE_MAX_AGE_MS);
    return this.book.sweep((id) => (id.startsWith(LEASE_PREFIX) ? leaseMaxAge : maxAgeMs), now);
  }
}
