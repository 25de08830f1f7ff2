// Original file: proto/gateway/accounting/v1/accounting.proto

import type { AuditContext as _gateway_accounting_v1_AuditContext, AuditContext__Output as _gateway_accounting_v1_AuditContext__Output } from '../../../gateway/accounting/v1/AuditContext.js';

export interface RotateKeyRequest {
  'key_id'?: (string);
  /**
   * How long the old secret keeps working; at most 7 days.
   */
  'grace_seconds'?: (number);
  'audit'?: (_gateway_accounting_v1_AuditContext | null);
}

export interface RotateKeyRequest__Output {
  'key_id': (string);
  /**
   * How long the old secret keeps working; at most 7 days.
   */
  'grace_seconds': (number);
  'audit': (_gateway_accounting_v1_AuditContext__Output | null);
}
