// Original file: proto/gateway/accounting/v1/accounting.proto

import type { BudgetPeriod as _gateway_accounting_v1_BudgetPeriod, BudgetPeriod__Output as _gateway_accounting_v1_BudgetPeriod__Output } from '../../../gateway/accounting/v1/BudgetPeriod.js';
import type { AuditContext as _gateway_accounting_v1_AuditContext, AuditContext__Output as _gateway_accounting_v1_AuditContext__Output } from '../../../gateway/accounting/v1/AuditContext.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateKeyRequest {
  'name'?: (string);
  'models'?: (string)[];
  'budget_nano_usd'?: (number | string | Long);
  'rpm'?: (number);
  'tpm'?: (number);
  'budget_period'?: (_gateway_accounting_v1_BudgetPeriod);
  /**
   * Unix milliseconds; 0: never.
   */
  'expires_at_ms'?: (number | string | Long);
  'team_id'?: (string);
  'metadata'?: ({[key: string]: string});
  'audit'?: (_gateway_accounting_v1_AuditContext | null);
  'response_storage_off'?: (boolean);
}

export interface CreateKeyRequest__Output {
  'name': (string);
  'models': (string)[];
  'budget_nano_usd': (number);
  'rpm': (number);
  'tpm': (number);
  'budget_period': (_gateway_accounting_v1_BudgetPeriod__Output);
  /**
   * Unix milliseconds; 0: never.
   */
  'expires_at_ms': (number);
  'team_id': (string);
  'metadata': ({[key: string]: string});
  'audit': (_gateway_accounting_v1_AuditContext__Output | null);
  'response_storage_off': (boolean);
}
