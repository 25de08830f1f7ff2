import { createRequire } from 'node:module';

// The encoding is loaded on first use, not at start: its tables are ~36 MB of live heap that
// every major GC marks (measured: ~80 µs more CPU per call at 50 connections in bench/chat.mjs),
// so a gateway whose prompts are all small (held on their bytes, hold.ts) and whose calls all
// carry usage never pays for it.

interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: ReadonlySet<string> }): number;
}

const require = createRequire(import.meta.url);
let encoding: Encoding | undefined;

function o200k(): Encoding {
  encoding ??= require('gpt-tokenizer/encoding/o200k_base') as Encoding;
  return encoding;
}

// Special-token strings in a caller's text ("<|endoftext|>") are ordinary text to an upstream
// that tokenizes user input; gpt-tokenizer's default throws on them, so they are allowed as text.
const AS_TEXT = { disallowedSpecial: new Set<string>() } as const;

/** Tokens of a text as the gateway counts them (o200k_base, never a character ratio). */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : o200k().countTokens(text, AS_TEXT);
}

/** Whether the encoding has been loaded in this process. */
export function tokenizerLoaded(): boolean {
  return encoding !== undefined;
}
