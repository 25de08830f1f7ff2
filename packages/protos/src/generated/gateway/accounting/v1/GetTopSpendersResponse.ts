// Original file: proto/gateway/accounting/v1/accounting.proto

import type { TopSpender as _gateway_accounting_v1_TopSpender, TopSpender__Output as _gateway_accounting_v1_TopSpender__Output } from '../../../gateway/accounting/v1/TopSpender.js';

export interface GetTopSpendersResponse {
  'spenders'?: (_gateway_accounting_v1_TopSpender)[];
}

export interface GetTopSpendersResponse__Output {
  'spenders': (_gateway_accounting_v1_TopSpender__Output)[];
}
