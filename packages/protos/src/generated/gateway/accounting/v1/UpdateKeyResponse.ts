// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from '../../../gateway/accounting/v1/Key.js';

export interface UpdateKeyResponse {
  'key'?: (_gateway_accounting_v1_Key | null);
}

export interface UpdateKeyResponse__Output {
  'key': (_gateway_accounting_v1_Key__Output | null);
}
