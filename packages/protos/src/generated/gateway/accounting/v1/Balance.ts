// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Spend of a key or team as of the answer.
 */
export interface Balance {
  /**
   * Unix milliseconds: the current period's start (the creation for lifetime budgets).
   */
  'period_start_ms'?: (number | string | Long);
  /**
   * Unix milliseconds: the next reset; 0 for lifetime budgets.
   */
  'resets_at_ms'?: (number | string | Long);
  /**
   * Spend in the current period.
   */
  'spent_nano_usd'?: (number | string | Long);
  'lifetime_spent_nano_usd'?: (number | string | Long);
  /**
   * Held for calls still in flight.
   */
  'reserved_nano_usd'?: (number | string | Long);
}

/**
 * Spend of a key or team as of the answer.
 */
export interface Balance__Output {
  /**
   * Unix milliseconds: the current period's start (the creation for lifetime budgets).
   */
  'period_start_ms': (number);
  /**
   * Unix milliseconds: the next reset; 0 for lifetime budgets.
   */
  'resets_at_ms': (number);
  /**
   * Spend in the current period.
   */
  'spent_nano_usd': (number);
  'lifetime_spent_nano_usd': (number);
  /**
   * Held for calls still in flight.
   */
  'reserved_nano_usd': (number);
}
