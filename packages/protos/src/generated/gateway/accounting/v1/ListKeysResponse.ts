// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from '../../../gateway/accounting/v1/Key.js';

export interface ListKeysResponse {
  'keys'?: (_gateway_accounting_v1_Key)[];
  /**
   * Empty on the last page.
   */
  'next_page_token'?: (string);
}

export interface ListKeysResponse__Output {
  'keys': (_gateway_accounting_v1_Key__Output)[];
  /**
   * Empty on the last page.
   */
  'next_page_token': (string);
}
