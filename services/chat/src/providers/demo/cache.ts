import { createHash } from 'node:crypto';

// DeepSeek-style automatic prefix caching for the demo model, so a repeated prompt shows cached
// tokens as a caching vendor's would. DeepSeek's rule over the real tokens: the prompt is cut in
// 64-token blocks; a block is cached when the whole prompt up to its end was seen before; a miss
// ends the run; a partial block never counts. The demo keeps no token ids: it remembers whole
// messages (hashed, with the model, as prefixes of the message list), so it knows the seen
// prefix up to the last message boundary, and counts the full blocks inside it. A prompt that
// changes inside a message is cached up to the message before, where DeepSeek would go on to
// the last block the two share: a lower bound, at a hash per message instead of per block.

/** DeepSeek's cache unit, in tokens. */
export const CACHE_BLOCK_TOKENS = 64;
/** Prefixes remembered per gateway process before the least recently used are forgotten. */
export const PREFIX_CACHE_ENTRIES = 10_000;

export class PrefixCache {
  /** Prefix hashes; a Map iterates in insertion order, so re-inserting on use makes it an LRU. */
  readonly #seen = new Map<string, true>();
  readonly #capacity: number;

  constructor(capacity = PREFIX_CACHE_ENTRIES) {
    this.#capacity = capacity;
  }

  /**
   * The cached tokens of a prompt (a multiple of 64), given its messages and each message's
   * tokens, remembering its prefixes for the next calls.
   */
  cachedTokens(model: string, messages: readonly unknown[], tokens: readonly number[]): number {
    let total = 0;
    for (const count of tokens) total += count;
    // Under one block: nothing can hit now or make a later prompt hit, so no hashing at all.
    if (total < CACHE_BLOCK_TOKENS) return 0;
    // JSON never holds a raw NUL, so NUL-separated parts cannot run into one another.
    const running = createHash('sha1').update(model).update('\0');
    let end = 0;
    let seenEnd = 0;
    let missed = false;
    for (const [i, message] of messages.entries()) {
      running.update(JSON.stringify(message) ?? '').update('\0');
      end += tokens[i] ?? 0;
      // A prefix shorter than a block holds no full block: neither looked up nor remembered.
      if (end < CACHE_BLOCK_TOKENS) continue;
      const prefix = running.copy().digest('base64');
      if (!missed && this.#seen.has(prefix)) seenEnd = end;
      else missed = true;
      this.#remember(prefix);
    }
    return Math.floor(seenEnd / CACHE_BLOCK_TOKENS) * CACHE_BLOCK_TOKENS;
  }

  #remember(prefix: string): void {
    this.#seen.delete(prefix);
    this.#seen.set(prefix, true);
    if (this.#seen.size > this.#capacity) {
      const oldest = this.#seen.keys().next();
      if (!oldest.done) this.#seen.delete(oldest.value);
    }
  }
}
