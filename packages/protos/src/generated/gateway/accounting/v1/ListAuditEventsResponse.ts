// Original file: proto/gateway/accounting/v1/accounting.proto

import type { AuditEvent as _gateway_accounting_v1_AuditEvent, AuditEvent__Output as _gateway_accounting_v1_AuditEvent__Output } from '../../../gateway/accounting/v1/AuditEvent.js';

export interface ListAuditEventsResponse {
  'events'?: (_gateway_accounting_v1_AuditEvent)[];
  'next_page_token'?: (string);
}

export interface ListAuditEventsResponse__Output {
  'events': (_gateway_accounting_v1_AuditEvent__Output)[];
  'next_page_token': (string);
}
