// Original file: proto/gateway/accounting/v1/accounting.proto

import type { TeamFields as _gateway_accounting_v1_TeamFields, TeamFields__Output as _gateway_accounting_v1_TeamFields__Output } from '../../../gateway/accounting/v1/TeamFields.js';
import type { AuditContext as _gateway_accounting_v1_AuditContext, AuditContext__Output as _gateway_accounting_v1_AuditContext__Output } from '../../../gateway/accounting/v1/AuditContext.js';

export interface UpdateTeamRequest {
  'team_id'?: (string);
  'patch'?: (_gateway_accounting_v1_TeamFields | null);
  /**
   * TeamFields names to apply; "budget_nano_usd" applies has_budget with it.
   */
  'update_mask'?: (string)[];
  'audit'?: (_gateway_accounting_v1_AuditContext | null);
}

export interface UpdateTeamRequest__Output {
  'team_id': (string);
  'patch': (_gateway_accounting_v1_TeamFields__Output | null);
  /**
   * TeamFields names to apply; "budget_nano_usd" applies has_budget with it.
   */
  'update_mask': (string)[];
  'audit': (_gateway_accounting_v1_AuditContext__Output | null);
}
