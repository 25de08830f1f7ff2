// Original file: proto/gateway/accounting/v1/accounting.proto

import type { ReserveBudgetRequest as _gateway_accounting_v1_ReserveBudgetRequest, ReserveBudgetRequest__Output as _gateway_accounting_v1_ReserveBudgetRequest__Output } from '../../../gateway/accounting/v1/ReserveBudgetRequest.js';

export interface ReserveBudgetsRequest {
  'reservations'?: (_gateway_accounting_v1_ReserveBudgetRequest)[];
}

export interface ReserveBudgetsRequest__Output {
  'reservations': (_gateway_accounting_v1_ReserveBudgetRequest__Output)[];
}
