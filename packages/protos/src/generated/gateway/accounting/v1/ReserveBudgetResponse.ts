// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface ReserveBudgetResponse {
  /**
   * What the key has left once this reservation is held.
   */
  'available_nano_usd'?: (number | string | Long);
}

export interface ReserveBudgetResponse__Output {
  /**
   * What the key has left once this reservation is held.
   */
  'available_nano_usd': (number);
}
