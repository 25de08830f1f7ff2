import { countTextTokens } from './text.js';

/**
 * Tokens of the text an upstream streamed before its caller left (content, reasoning, tool-call
 * arguments; one string per kind is fine). Bypasses the memo: a reply is seen once, and keeping
 * it would only push the tool lists and histories that do repeat out of the memo.
 */
export function countCompletionTokens(parts: readonly string[]): number {
  let tokens = 0;
  for (const part of parts) if (typeof part === 'string') tokens += countTextTokens(part);
  return tokens;
}
