// Original file: proto/gateway/accounting/v1/accounting.proto

import type { SpenderKind as _gateway_accounting_v1_SpenderKind, SpenderKind__Output as _gateway_accounting_v1_SpenderKind__Output } from '../../../gateway/accounting/v1/SpenderKind.js';

export interface GetTopSpendersRequest {
  /**
   * UNSPECIFIED: keys.
   */
  'by'?: (_gateway_accounting_v1_SpenderKind);
  /**
   * UTC days, "YYYY-MM-DD", both inclusive; empty: the last 30 days.
   */
  'from_day'?: (string);
  'to_day'?: (string);
  /**
   * At most this many; 0: 10, capped at 100.
   */
  'limit'?: (number);
}

export interface GetTopSpendersRequest__Output {
  /**
   * UNSPECIFIED: keys.
   */
  'by': (_gateway_accounting_v1_SpenderKind__Output);
  /**
   * UTC days, "YYYY-MM-DD", both inclusive; empty: the last 30 days.
   */
  'from_day': (string);
  'to_day': (string);
  /**
   * At most this many; 0: 10, capped at 100.
   */
  'limit': (number);
}
