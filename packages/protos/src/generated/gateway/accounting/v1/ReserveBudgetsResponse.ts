// Original file: proto/gateway/accounting/v1/accounting.proto

import type { ReserveBudgetResult as _gateway_accounting_v1_ReserveBudgetResult, ReserveBudgetResult__Output as _gateway_accounting_v1_ReserveBudgetResult__Output } from '../../../gateway/accounting/v1/ReserveBudgetResult.js';

export interface ReserveBudgetsResponse {
  /**
   * One per reservation, in order.
   */
  'results'?: (_gateway_accounting_v1_ReserveBudgetResult)[];
}

export interface ReserveBudgetsResponse__Output {
  /**
   * One per reservation, in order.
   */
  'results': (_gateway_accounting_v1_ReserveBudgetResult__Output)[];
}
