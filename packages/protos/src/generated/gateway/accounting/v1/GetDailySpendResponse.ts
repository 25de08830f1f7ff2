// Original file: proto/gateway/accounting/v1/accounting.proto

import type { DailySpend as _gateway_accounting_v1_DailySpend, DailySpend__Output as _gateway_accounting_v1_DailySpend__Output } from '../../../gateway/accounting/v1/DailySpend.js';

export interface GetDailySpendResponse {
  /**
   * Per day and group, oldest first.
   */
  'days'?: (_gateway_accounting_v1_DailySpend)[];
}

export interface GetDailySpendResponse__Output {
  /**
   * Per day and group, oldest first.
   */
  'days': (_gateway_accounting_v1_DailySpend__Output)[];
}
