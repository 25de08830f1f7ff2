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
}
