// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface ReserveBudgetResult {
  /**
   * Set when the hold was made.
   */
  'available_nano_usd'?: (number | string | Long);
  /**
   * Empty on success, else the error catalog code (budget_exceeded, rate_limit_exceeded, …).
   */
  'error_code'?: (string);
  'error_message'?: (string);
  /**
   * For rate_limit_exceeded.
   */
  'retry_after_seconds'?: (number);
}

export interface ReserveBudgetResult__Output {
  /**
   * Set when the hold was made.
   */
  'available_nano_usd': (number);
  /**
   * Empty on success, else the error catalog code (budget_exceeded, rate_limit_exceeded, …).
   */
  'error_code': (string);
  'error_message': (string);
  /**
   * For rate_limit_exceeded.
   */
  'retry_after_seconds': (number);
}
