// Original file: proto/gateway/accounting/v1/accounting.proto

import type { KeyPatch as _gateway_accounting_v1_KeyPatch, KeyPatch__Output as _gateway_accounting_v1_KeyPatch__Output } from '../../../gateway/accounting/v1/KeyPatch.js';
import type { AuditContext as _gateway_accounting_v1_AuditContext, AuditContext__Output as _gateway_accounting_v1_AuditContext__Output } from '../../../gateway/accounting/v1/AuditContext.js';

export interface UpdateKeyRequest {
  'key_id'?: (string);
  'patch'?: (_gateway_accounting_v1_KeyPatch | null);
  /**
   * The KeyPatch field names to apply ("name", "budget_nano_usd", ...); unknown names are
   * INVALID_ARGUMENT.
   */
  'update_mask'?: (string)[];
  'audit'?: (_gateway_accounting_v1_AuditContext | null);
}

export interface UpdateKeyRequest__Output {
  'key_id': (string);
  'patch': (_gateway_accounting_v1_KeyPatch__Output | null);
  /**
   * The KeyPatch field names to apply ("name", "budget_nano_usd", ...); unknown names are
   * INVALID_ARGUMENT.
   */
  'update_mask': (string)[];
  'audit': (_gateway_accounting_v1_AuditContext__Output | null);
}
