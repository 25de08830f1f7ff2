// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from '../../../gateway/accounting/v1/Key.js';

export interface RotateKeyResponse {
  'key'?: (_gateway_accounting_v1_Key | null);
  /**
   * The new secret, "sk-…": returned here once and stored only as a hash.
   */
  'secret'?: (string);
}

export interface RotateKeyResponse__Output {
  'key': (_gateway_accounting_v1_Key__Output | null);
  /**
   * The new secret, "sk-…": returned here once and stored only as a hash.
   */
  'secret': (string);
}
