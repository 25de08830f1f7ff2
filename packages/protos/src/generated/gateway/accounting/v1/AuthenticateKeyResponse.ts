// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from '../../../gateway/accounting/v1/Key.js';
import type { Long } from '@grpc/proto-loader';

export interface AuthenticateKeyResponse {
  'key'?: (_gateway_accounting_v1_Key | null);
  /**
   * Spend in the key's current period.
   */
  'spent_nano_usd'?: (number | string | Long);
  /**
   * Groups the key may call: its own list, narrowed by its team's ("*" means every group).
   */
  'allowed_models'?: (string)[];
  /**
   * Unix milliseconds after which this secret stops working (expiry, or the end of a rotation's
   * grace); 0: no such time. Callers caching the answer keep it no longer.
   */
  'valid_until_ms'?: (number | string | Long);
}

export interface AuthenticateKeyResponse__Output {
  'key': (_gateway_accounting_v1_Key__Output | null);
  /**
   * Spend in the key's current period.
   */
  'spent_nano_usd': (number);
  /**
   * Groups the key may call: its own list, narrowed by its team's ("*" means every group).
   */
  'allowed_models': (string)[];
  /**
   * Unix milliseconds after which this secret stops working (expiry, or the end of a rotation's
   * grace); 0: no such time. Callers caching the answer keep it no longer.
   */
  'valid_until_ms': (number);
}
