import { readPrompt, type PromptCount } from './prompt.js';

/**
 * What the worst-case hold multiplies the count of ASCII texts by (English, code, JSON, logs),
 * so that it stays above what the upstream bills. Measured against DeepSeek's own tokenizer
 * (bench/tokenizer-accuracy.mjs): English, code, JSON schemas, logs, numbers and an agent
 * transcript come within -6%..+1% of o200k; 1.25 covers that with a margin.
 */
export const PROMPT_HOLD_FACTOR = 1.25;

/**
 * The same for texts with characters beyond ASCII: Chinese and Japanese are over-counted (safe),
 * but DeepSeek's vocabulary needs 1.28x o200k's tokens for Russian, 1.31x Greek, 1.32x Arabic,
 * 1.76x Vietnamese and 2.33x Hindi. The hold must never be short, whatever the language, so the
 * factor is the worst measured ratio plus a margin for scripts not sampled. It is a reservation,
 * released at settlement: over-holding only delays a key close to its budget, under-holding
 * lets a call overspend it.
 */
export const WIDE_PROMPT_HOLD_FACTOR = 2.5;

/**
 * Added once to every hold: what an upstream wraps around the prompt that the body does not show
 * (BOS and template tokens; the per-message overhead is already counted, at OpenAI's 3 + role,
 * above DeepSeek's one marker a turn).
 */
export const PROMPT_HOLD_CONSTANT = 16;

/** Added when the body defines tools: the tool-use instructions a vendor's template adds (DeepSeek V3.1's: about 150 tokens). */
export const TOOLS_HOLD_CONSTANT = 256;

/** Prompt tokens to hold for a body counted as `count`, with `tokensPerImage` per image part. */
export function promptHoldTokens(count: PromptCount, tokensPerImage: number): number {
  const ascii = count.tokens - count.wideTokens;
  return (
    Math.ceil(ascii * PROMPT_HOLD_FACTOR + count.wideTokens * WIDE_PROMPT_HOLD_FACTOR) +
    PROMPT_HOLD_CONSTANT +
    (count.tools > 0 ? TOOLS_HOLD_CONSTANT : 0) +
    count.images * tokensPerImage
  );
}

/**
 * Prompts with at most this many characters of text are held on their UTF-8 bytes: no byte-level
 * BPE tokenizer (o200k, DeepSeek's, Llama's) makes more tokens than bytes of a text, so the bound
 * is safe whatever the vocabulary, costs nothing to compute, and over-holds a small prompt by
 * at most a couple of thousand tokens (a fraction of a cent at today's prices).
 */
export const SMALL_PROMPT_CHARS = 2048;

/**
 * Prompt tokens to hold for a chat body: its overheads and images as counted, plus its texts'
 * bytes when they are few, else their tokens raised by the measured factors (promptHoldTokens).
 */
export function holdPromptTokens(body: Readonly<Record<string, unknown>>, tokensPerImage: number): number {
  const { count, texts } = readPrompt(body);
  if (texts.chars <= SMALL_PROMPT_CHARS) {
    // No constant: the bytes already exceed the tokens of any text but a random one, and the
    // overheads counted (3 + role a message, 3 for the reply) exceed every template's markers
    // (DeepSeek's: one a turn, and BOS).
    return count.tokens + texts.bytes() + (count.tools > 0 ? TOOLS_HOLD_CONSTANT : 0) + count.images * tokensPerImage;
  }
  texts.countInto(count);
  return promptHoldTokens(count, tokensPerImage);
}
