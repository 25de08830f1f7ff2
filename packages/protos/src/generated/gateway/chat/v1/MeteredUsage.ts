// Original file: proto/gateway/chat/v1/chat.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A call's tokens and price as metered, for the edge's access log (the spend event bills it).
 */
export interface MeteredUsage {
  'prompt_tokens'?: (number | string | Long);
  'completion_tokens'?: (number | string | Long);
  /**
   * Included in completion_tokens.
   */
  'reasoning_tokens'?: (number | string | Long);
  'cost_nano_usd'?: (number | string | Long);
  /**
   * Prompt tokens the upstream served from its prompt cache (included in prompt_tokens).
   */
  'cached_tokens'?: (number | string | Long);
  /**
   * What the cached tokens would have cost more at the uncached input price.
   */
  'cache_saved_nano_usd'?: (number | string | Long);
  /**
   * The counts are the gateway's own (the caller left, or the upstream sent no usage), not the upstream's.
   */
  'estimated'?: (boolean);
}

/**
 * A call's tokens and price as metered, for the edge's access log (the spend event bills it).
 */
export interface MeteredUsage__Output {
  'prompt_tokens': (number);
  'completion_tokens': (number);
  /**
   * Included in completion_tokens.
   */
  'reasoning_tokens': (number);
  'cost_nano_usd': (number);
  /**
   * Prompt tokens the upstream served from its prompt cache (included in prompt_tokens).
   */
  'cached_tokens': (number);
  /**
   * What the cached tokens would have cost more at the uncached input price.
   */
  'cache_saved_nano_usd': (number);
  /**
   * The counts are the gateway's own (the caller left, or the upstream sent no usage), not the upstream's.
   */
  'estimated': (boolean);
}
