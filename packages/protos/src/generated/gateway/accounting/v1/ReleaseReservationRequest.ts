// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface ReleaseReservationRequest {
  'reservation_id'?: (string);
  /**
   * How much of it to give back; 0 gives back all that is held.
   */
  'amount_nano_usd'?: (number | string | Long);
  /**
   * The key the reservation is held on: the release is then one update of that key. Empty (older
   * callers) makes accounting look the reservation up among every key's holds.
   */
  'key_id'?: (string);
}

export interface ReleaseReservationRequest__Output {
  'reservation_id': (string);
  /**
   * How much of it to give back; 0 gives back all that is held.
   */
  'amount_nano_usd': (number);
  /**
   * The key the reservation is held on: the release is then one update of that key. Empty (older
   * callers) makes accounting look the reservation up among every key's holds.
   */
  'key_id': (string);
}
