// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface LeaseBudgetResponse {
  /**
   * Held under lease_id; 0 with per_call.
   */
  'granted_nano_usd'?: (number | string | Long);
  /**
   * The key has rpm or tpm limits: hold each call with ReserveBudget instead.
   */
  'per_call'?: (boolean);
}

export interface LeaseBudgetResponse__Output {
  /**
   * Held under lease_id; 0 with per_call.
   */
  'granted_nano_usd': (number);
  /**
   * The key has rpm or tpm limits: hold each call with ReserveBudget instead.
   */
  'per_call': (boolean);
}
