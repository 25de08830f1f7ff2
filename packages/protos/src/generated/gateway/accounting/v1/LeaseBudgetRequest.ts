// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface LeaseBudgetRequest {
  'key_id'?: (string);
  'group'?: (string);
  /**
   * Chosen by the caller; a lease is a reservation with this id.
   */
  'lease_id'?: (string);
  /**
   * What the call asking for the lease needs: less than this available is budget_exceeded.
   */
  'min_nano_usd'?: (number | string | Long);
  /**
   * The most to hold; the grant is smaller when the key's budget runs low.
   */
  'want_nano_usd'?: (number | string | Long);
  /**
   * The caller's previous lease on this key and group, and its undrawn part, given back first
   * in the same step. Empty when there is none.
   */
  'return_lease_id'?: (string);
  'return_nano_usd'?: (number | string | Long);
}

export interface LeaseBudgetRequest__Output {
  'key_id': (string);
  'group': (string);
  /**
   * Chosen by the caller; a lease is a reservation with this id.
   */
  'lease_id': (string);
  /**
   * What the call asking for the lease needs: less than this available is budget_exceeded.
   */
  'min_nano_usd': (number);
  /**
   * The most to hold; the grant is smaller when the key's budget runs low.
   */
  'want_nano_usd': (number);
  /**
   * The caller's previous lease on this key and group, and its undrawn part, given back first
   * in the same step. Empty when there is none.
   */
  'return_lease_id': (string);
  'return_nano_usd': (number);
}
