// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from '../../../gateway/accounting/v1/Key.js';
import type { GroupUsage as _gateway_accounting_v1_GroupUsage, GroupUsage__Output as _gateway_accounting_v1_GroupUsage__Output } from '../../../gateway/accounting/v1/GroupUsage.js';
import type { Long } from '@grpc/proto-loader';

export interface GetUsageResponse {
  'key'?: (_gateway_accounting_v1_Key | null);
  'spent_nano_usd'?: (number | string | Long);
  /**
   * Held for calls still in flight.
   */
  'reserved_nano_usd'?: (number | string | Long);
  'groups'?: (_gateway_accounting_v1_GroupUsage)[];
  /**
   * Unix milliseconds: the start of the period the figures cover (the key's creation).
   */
  'period_start_ms'?: (number | string | Long);
}

export interface GetUsageResponse__Output {
  'key': (_gateway_accounting_v1_Key__Output | null);
  'spent_nano_usd': (number);
  /**
   * Held for calls still in flight.
   */
  'reserved_nano_usd': (number);
  'groups': (_gateway_accounting_v1_GroupUsage__Output)[];
  /**
   * Unix milliseconds: the start of the period the figures cover (the key's creation).
   */
  'period_start_ms': (number);
}
