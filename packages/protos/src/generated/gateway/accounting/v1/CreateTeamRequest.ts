// Original file: proto/gateway/accounting/v1/accounting.proto

import type { TeamFields as _gateway_accounting_v1_TeamFields, TeamFields__Output as _gateway_accounting_v1_TeamFields__Output } from '../../../gateway/accounting/v1/TeamFields.js';
import type { AuditContext as _gateway_accounting_v1_AuditContext, AuditContext__Output as _gateway_accounting_v1_AuditContext__Output } from '../../../gateway/accounting/v1/AuditContext.js';

export interface CreateTeamRequest {
  'team'?: (_gateway_accounting_v1_TeamFields | null);
  'audit'?: (_gateway_accounting_v1_AuditContext | null);
}

export interface CreateTeamRequest__Output {
  'team': (_gateway_accounting_v1_TeamFields__Output | null);
  'audit': (_gateway_accounting_v1_AuditContext__Output | null);
}
