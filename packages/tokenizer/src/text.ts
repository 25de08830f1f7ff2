import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

// Special-token strings in a caller's text ("<|endoftext|>") are ordinary text to an upstream
// that tokenizes user input; gpt-tokenizer's default throws on them, so they are allowed as text.
const AS_TEXT = { disallowedSpecial: new Set<string>() } as const;

/** Tokens of a text as the gateway counts them (o200k_base, never a character ratio). */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text, AS_TEXT);
}
