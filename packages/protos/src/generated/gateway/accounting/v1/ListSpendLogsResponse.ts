// Original file: proto/gateway/accounting/v1/accounting.proto

import type { SpendLogEntry as _gateway_accounting_v1_SpendLogEntry, SpendLogEntry__Output as _gateway_accounting_v1_SpendLogEntry__Output } from '../../../gateway/accounting/v1/SpendLogEntry.js';

export interface ListSpendLogsResponse {
  'entries'?: (_gateway_accounting_v1_SpendLogEntry)[];
  'next_page_token'?: (string);
}

export interface ListSpendLogsResponse__Output {
  'entries': (_gateway_accounting_v1_SpendLogEntry__Output)[];
  'next_page_token': (string);
}
