// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface DailySpend {
  /**
   * UTC day, "YYYY-MM-DD".
   */
  'day'?: (string);
  /**
   * Empty when the row sums every group.
   */
  'group'?: (string);
  'spent_nano_usd'?: (number | string | Long);
  'requests'?: (number | string | Long);
  /**
   * Prompt tokens served from the upstream's prompt cache, and what they saved.
   */
  'cached_tokens'?: (number | string | Long);
  'cache_saved_nano_usd'?: (number | string | Long);
}

export interface DailySpend__Output {
  /**
   * UTC day, "YYYY-MM-DD".
   */
  'day': (string);
  /**
   * Empty when the row sums every group.
   */
  'group': (string);
  'spent_nano_usd': (number);
  'requests': (number);
  /**
   * Prompt tokens served from the upstream's prompt cache, and what they saved.
   */
  'cached_tokens': (number);
  'cache_saved_nano_usd': (number);
}
