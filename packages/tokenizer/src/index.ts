// Token counts the gateway makes itself: a call's worst-case hold before it goes upstream, and
// the bill of a call the upstream never metered (a stream its caller left). One real BPE
// tokenizer (OpenAI's o200k_base, pure JavaScript), never a character ratio.

import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** Tokens of a text as the gateway counts them. */
export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text);
}
