import type { JsonObject } from './request.js';

// A call's token counts as the gateway meters them, read from the OpenAI-shaped `usage` block
// every adapter hands over (an adapter whose vendor reports its cache another way, DeepSeek's
// `prompt_cache_hit_tokens`, moves it into `prompt_tokens_details.cached_tokens` first).

export interface ChatUsage {
  prompt_tokens: number;
  /** Prompt tokens served from the upstream's prompt cache: part of prompt_tokens. */
  cached_tokens: number;
  /** Reasoning included. */
  completion_tokens: number;
  /** Part of completion_tokens. */
  reasoning_tokens: number;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}

function objectAt(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null ? (value as JsonObject) : undefined;
}

/** The token counts of an OpenAI-shaped `usage` block, or undefined when there is none. */
export function readUsage(usage: unknown): ChatUsage | undefined {
  const u = objectAt(usage);
  if (!u) return undefined;
  const prompt = count(u.prompt_tokens);
  const completion = count(u.completion_tokens);
  return {
    prompt_tokens: prompt,
    // A vendor cannot serve more of the prompt from cache than the prompt: clamped, never trusted past it.
    cached_tokens: Math.min(prompt, count(objectAt(u.prompt_tokens_details)?.cached_tokens)),
    completion_tokens: completion,
    reasoning_tokens: Math.min(completion, count(objectAt(u.completion_tokens_details)?.reasoning_tokens)),
  };
}

/**
 * The usage block as callers see it, in OpenAI's shape whatever the vendor: always with
 * `prompt_tokens_details.cached_tokens` and `completion_tokens_details.reasoning_tokens` (0 when none).
 */
export function normalizeUsage(usage: JsonObject): void {
  const prompt = objectAt(usage.prompt_tokens_details);
  if (!prompt) usage.prompt_tokens_details = { cached_tokens: 0 };
  else if (typeof prompt.cached_tokens !== 'number') prompt.cached_tokens = 0;
  const completion = objectAt(usage.completion_tokens_details);
  if (!completion) usage.completion_tokens_details = { reasoning_tokens: 0 };
  else if (typeof completion.reasoning_tokens !== 'number') completion.reasoning_tokens = 0;
}

/** An OpenAI-shaped usage block for counts the gateway made itself (an estimate). */
export function usageBlock(usage: ChatUsage): JsonObject {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
  };
}
