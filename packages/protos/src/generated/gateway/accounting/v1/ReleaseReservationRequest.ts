// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface ReleaseReservationRequest {
  'reservation_id'?: (string);
  /**
   * How much of it to give back; 0 gives back all that is held.
   */
  'amount_nano_usd'?: (number | string | Long);
}

export interface ReleaseReservationRequest__Output {
  'reservation_id': (string);
  /**
   * How much of it to give back; 0 gives back all that is held.
   */
  'amount_nano_usd': (number);
}
