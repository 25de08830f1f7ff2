import type { JsonObject } from '../../domain/request.js';

/**
 * DeepSeek's usage block in OpenAI's shape: its prompt-cache hits (`prompt_cache_hit_tokens`,
 * with `prompt_cache_miss_tokens` the rest of the prompt) become
 * `prompt_tokens_details.cached_tokens`, and its own two fields go, so an answer does not tell
 * which vendor served it.
 */
export function deepseekUsage(usage: unknown): void {
  if (typeof usage !== 'object' || usage === null) return;
  const u = usage as JsonObject;
  const hits = u.prompt_cache_hit_tokens;
  if (hits === undefined && u.prompt_cache_miss_tokens === undefined) return;
  const details =
    typeof u.prompt_tokens_details === 'object' && u.prompt_tokens_details !== null ? (u.prompt_tokens_details as JsonObject) : {};
  if (typeof hits === 'number') details.cached_tokens = hits;
  u.prompt_tokens_details = details;
  // Undefined rather than deleted: JSON.stringify leaves both out, and the object keeps its shape.
  u.prompt_cache_hit_tokens = undefined;
  u.prompt_cache_miss_tokens = undefined;
}
