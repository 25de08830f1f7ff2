// Original file: proto/gateway/accounting/v1/accounting.proto

import type { BudgetPeriod as _gateway_accounting_v1_BudgetPeriod, BudgetPeriod__Output as _gateway_accounting_v1_BudgetPeriod__Output } from '../../../gateway/accounting/v1/BudgetPeriod.js';
import type { Long } from '@grpc/proto-loader';

/**
 * A team's settable fields, for creation (all apply) and updates (those in update_mask).
 */
export interface TeamFields {
  'name'?: (string);
  'models'?: (string)[];
  'has_budget'?: (boolean);
  'budget_nano_usd'?: (number | string | Long);
  'budget_period'?: (_gateway_accounting_v1_BudgetPeriod);
  'rpm'?: (number);
  'tpm'?: (number);
  'metadata'?: ({[key: string]: string});
}

/**
 * A team's settable fields, for creation (all apply) and updates (those in update_mask).
 */
export interface TeamFields__Output {
  'name': (string);
  'models': (string)[];
  'has_budget': (boolean);
  'budget_nano_usd': (number);
  'budget_period': (_gateway_accounting_v1_BudgetPeriod__Output);
  'rpm': (number);
  'tpm': (number);
  'metadata': ({[key: string]: string});
}
