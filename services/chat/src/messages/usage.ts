import type { JsonObject } from '../domain/request.js';
import type { ChatUsage } from '../domain/usage.js';

// The gateway's counts as an Anthropic usage block. Anthropic's input_tokens leaves out the
// prompt read from cache (the three input counts add up to the prompt); output_tokens includes
// the thinking. Chat upstreams report no cache writes, so cache_creation_input_tokens is 0.

export interface MessageUsage extends JsonObject {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export function messageUsage(usage: ChatUsage): MessageUsage {
  const cached = Math.min(usage.cached_tokens, usage.prompt_tokens);
  return {
    input_tokens: usage.prompt_tokens - cached,
    output_tokens: usage.completion_tokens,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}
