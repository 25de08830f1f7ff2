// Original file: proto/gateway/accounting/v1/accounting.proto

import type { AuditContext as _gateway_accounting_v1_AuditContext, AuditContext__Output as _gateway_accounting_v1_AuditContext__Output } from '../../../gateway/accounting/v1/AuditContext.js';

export interface DeleteTeamRequest {
  'team_id'?: (string);
  'audit'?: (_gateway_accounting_v1_AuditContext | null);
}

export interface DeleteTeamRequest__Output {
  'team_id': (string);
  'audit': (_gateway_accounting_v1_AuditContext__Output | null);
}
