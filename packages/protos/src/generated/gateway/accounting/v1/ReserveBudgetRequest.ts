// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface ReserveBudgetRequest {
  'key_id'?: (string);
  'group'?: (string);
  'amount_nano_usd'?: (number | string | Long);
  /**
   * Chosen by the caller (the completion or job id), so a retried call reserves once.
   */
  'reservation_id'?: (string);
}

export interface ReserveBudgetRequest__Output {
  'key_id': (string);
  'group': (string);
  'amount_nano_usd': (number);
  /**
   * Chosen by the caller (the completion or job id), so a retried call reserves once.
   */
  'reservation_id': (string);
}
