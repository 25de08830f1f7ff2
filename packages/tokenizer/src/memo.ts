import { countTextTokens } from './text.js';

// Agent traffic re-sends the same ~60 KB tool list and the same growing history every turn;
// BPE over them costs milliseconds, a Map hit on the exact string costs microseconds.

/** Strings shorter than this are counted directly: a Map lookup would cost about as much. */
export const MEMO_MIN_CHARS = 1024;
/** Bound on the memo's keys, counted as UTF-16 bytes (the worst a V8 string takes). */
export const MEMO_MAX_BYTES = 16 * 1024 * 1024;

/** A least-recently-used map from exact text to its token count, bounded by total key bytes. */
export class TokenMemo {
  private readonly counts = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = MEMO_MAX_BYTES,
    private readonly minChars = MEMO_MIN_CHARS,
  ) {}

  /** Tokens of `text`, from the memo when it was counted before. */
  count(text: string): number {
    if (text.length < this.minChars) return countTextTokens(text);
    return this.lookup(text, () => countTextTokens(text));
  }

  /**
   * The memoized value for `key`, else `compute()` stored under it. `key` must determine the
   * value exactly (a text, or texts joined with a separator they cannot contain).
   */
  lookup(key: string, compute: () => number): number {
    const known = this.counts.get(key);
    if (known !== undefined) {
      // Map keeps insertion order: re-inserting makes this the most recently used entry.
      this.counts.delete(key);
      this.counts.set(key, known);
      return known;
    }
    const tokens = compute();
    const size = key.length * 2;
    if (size > this.maxBytes) return tokens;
    this.counts.set(key, tokens);
    this.bytes += size;
    for (const oldest of this.counts.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.counts.delete(oldest);
      this.bytes -= oldest.length * 2;
    }
    return tokens;
  }

  /** Entries and key bytes held, for tests and metrics. */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.counts.size, bytes: this.bytes };
  }

  clear(): void {
    this.counts.clear();
    this.bytes = 0;
  }
}

/** The process-wide memo `countPromptTokens` uses. */
export const promptMemo = new TokenMemo();
