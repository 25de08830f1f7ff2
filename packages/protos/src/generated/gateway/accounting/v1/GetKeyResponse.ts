// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from '../../../gateway/accounting/v1/Key.js';
import type { Long } from '@grpc/proto-loader';

export interface GetKeyResponse {
  'key'?: (_gateway_accounting_v1_Key | null);
  'spent_nano_usd'?: (number | string | Long);
}

export interface GetKeyResponse__Output {
  'key': (_gateway_accounting_v1_Key__Output | null);
  'spent_nano_usd': (number);
}
