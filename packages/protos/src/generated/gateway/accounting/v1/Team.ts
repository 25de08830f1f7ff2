// Original file: proto/gateway/accounting/v1/accounting.proto

import type { BudgetPeriod as _gateway_accounting_v1_BudgetPeriod, BudgetPeriod__Output as _gateway_accounting_v1_BudgetPeriod__Output } from '../../../gateway/accounting/v1/BudgetPeriod.js';
import type { Balance as _gateway_accounting_v1_Balance, Balance__Output as _gateway_accounting_v1_Balance__Output } from '../../../gateway/accounting/v1/Balance.js';
import type { Long } from '@grpc/proto-loader';

export interface Team {
  /**
   * "team_…".
   */
  'id'?: (string);
  'name'?: (string);
  /**
   * Group ids its keys may call; "*" means every group.
   */
  'models'?: (string)[];
  /**
   * False: no team budget (budget_nano_usd is then 0 and meaningless).
   */
  'has_budget'?: (boolean);
  'budget_nano_usd'?: (number | string | Long);
  'budget_period'?: (_gateway_accounting_v1_BudgetPeriod);
  /**
   * 0 means no limit.
   */
  'rpm'?: (number);
  'tpm'?: (number);
  'created_at_ms'?: (number | string | Long);
  'metadata'?: ({[key: string]: string});
  'balance'?: (_gateway_accounting_v1_Balance | null);
}

export interface Team__Output {
  /**
   * "team_…".
   */
  'id': (string);
  'name': (string);
  /**
   * Group ids its keys may call; "*" means every group.
   */
  'models': (string)[];
  /**
   * False: no team budget (budget_nano_usd is then 0 and meaningless).
   */
  'has_budget': (boolean);
  'budget_nano_usd': (number);
  'budget_period': (_gateway_accounting_v1_BudgetPeriod__Output);
  /**
   * 0 means no limit.
   */
  'rpm': (number);
  'tpm': (number);
  'created_at_ms': (number);
  'metadata': ({[key: string]: string});
  'balance': (_gateway_accounting_v1_Balance__Output | null);
}
