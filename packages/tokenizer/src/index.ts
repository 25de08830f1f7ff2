// Token counts the gateway makes itself: a call's worst-case hold before it goes upstream, and
// the bill of a call the upstream never metered (a stream its caller left). One real BPE
// tokenizer (OpenAI's o200k_base, pure JavaScript), never a character ratio.

export { countTextTokens, tokenizerLoaded } from './text.js';
export { countPromptTokens, readPrompt, PromptTexts, type PromptCount } from './prompt.js';
export { countCompletionTokens } from './completion.js';
export { MEMO_MAX_BYTES, MEMO_MIN_CHARS, TokenMemo, promptMemo } from './memo.js';
export {
  PROMPT_HOLD_CONSTANT,
  PROMPT_HOLD_FACTOR,
  TOOLS_HOLD_CONSTANT,
  WIDE_PROMPT_HOLD_FACTOR,
  SMALL_PROMPT_CHARS,
  holdPromptTokens,
  promptHoldTokens,
} from './hold.js';
