import { createHash } from 'node:crypto';

// DeepSeek-style automatic prefix caching, as the chat simulator reports it.
//
// The prompt as a token sequence: the messages' text in order (string contents, then each text
// part), every non-text part (an image) a fixed 340-character unit standing for that part, all
// concatenated and cut in 4-character tokens. Its length in tokens is exactly `countPromptTokens`.
// Roles and message boundaries are not in the sequence, as they are not in the count.
//
// The sequence is cut in blocks of 64 tokens (256 characters). Block i is a hit when the whole
// prefix through the end of block i was seen before by the same cache (one simulator instance,
// i.e. one deployment). Hits count only for leading blocks: the first miss ends the run. A
// partial last block (fewer than 64 tokens) is never a hit. So a prompt that shares its first
// 256·k characters with an earlier prompt (and is at least that long) hits exactly 64·k tokens.

/** DeepSeek's cache unit, in tokens. */
export const CACHE_BLOCK_TOKENS = 64;
const CHARS_PER_TOKEN = 4;
const BLOCK_CHARS = CACHE_BLOCK_TOKENS * CHARS_PER_TOKEN;
/** An image costs 85 tokens. */
export const IMAGE_CHARS = 340;
/** Prefixes remembered per cache before the least recently used are forgotten. */
export const PROMPT_CACHE_ENTRIES = 10_000;

/** A non-text part as 340 characters that differ from one part to another. */
function partUnit(part: unknown): string {
  return createHash('sha256').update(JSON.stringify(part)).digest('hex').padEnd(IMAGE_CHARS, '.');
}

/** The prompt's token sequence as text: four characters a token (see above). */
export function promptText(messages: unknown): string {
  let text = '';
  for (const message of Array.isArray(messages) ? messages : []) {
    const content = (message as { content?: unknown }).content;
    if (typeof content === 'string') text += content;
    else if (Array.isArray(content)) {
      for (const part of content) {
        const p = part as { type?: string; text?: string };
        text += p.type === 'text' ? (p.text ?? '') : partUnit(part);
      }
    }
  }
  return text;
}

/** The prompt's length in characters, without building its text: the hot path's cheap check. */
export function promptChars(messages: unknown): number {
  let chars = 0;
  for (const message of Array.isArray(messages) ? messages : []) {
    const content = (message as { content?: unknown }).content;
    if (typeof content === 'string') chars += content.length;
    else if (Array.isArray(content)) {
      for (const part of content) {
        const p = part as { type?: string; text?: string };
        chars += p.type === 'text' ? (p.text ?? '').length : IMAGE_CHARS;
      }
    }
  }
  return chars;
}

/** Remembers prompt prefixes (hashed, least recently used forgotten first) and counts cache hits. */
export class PromptCache {
  /** Prefix hashes; a Map iterates in insertion order, so re-inserting on use makes it an LRU. */
  readonly #seen = new Map<string, true>();
  readonly #capacity: number;

  constructor(capacity = PROMPT_CACHE_ENTRIES) {
    this.#capacity = capacity;
  }

  /** Cached tokens for this prompt (a multiple of 64), remembering its prefixes for later calls. */
  use(messages: unknown): number {
    const chars = promptChars(messages);
    // Fewer than 64 tokens: no full block, nothing to hit or remember, no hashing.
    const blocks = Math.floor(Math.ceil(chars / CHARS_PER_TOKEN) / CACHE_BLOCK_TOKENS);
    if (blocks === 0) return 0;
    const text = promptText(messages);
    // One running hash over the text; a copy's digest at each block's end names that whole prefix.
    const running = createHash('sha1');
    let hits = 0;
    let missed = false;
    for (let i = 0; i < blocks; i++) {
      running.update(text.slice(i * BLOCK_CHARS, (i + 1) * BLOCK_CHARS));
      const prefix = running.copy().digest('base64');
      if (!missed && this.#seen.has(prefix)) hits += CACHE_BLOCK_TOKENS;
      else missed = true;
      this.#remember(prefix);
    }
    return hits;
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

/**
 * The cached tokens a fresh simulator reports for `messages` after serving the `earlier`
 * prompts (each a messages array), in order: what a test expects without working out blocks.
 */
export function expectedCachedTokens(earlier: readonly unknown[], messages: unknown): number {
  const cache = new PromptCache();
  for (const prompt of earlier) cache.use(prompt);
  return cache.use(messages);
}
