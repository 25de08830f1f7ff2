// Original file: proto/gateway/accounting/v1/accounting.proto

import type { BudgetPeriod as _gateway_accounting_v1_BudgetPeriod, BudgetPeriod__Output as _gateway_accounting_v1_BudgetPeriod__Output } from '../../../gateway/accounting/v1/BudgetPeriod.js';
import type { Long } from '@grpc/proto-loader';

/**
 * The fields of a key that UpdateKey can change; which of them apply is the request's update_mask.
 */
export interface KeyPatch {
  'name'?: (string);
  'models'?: (string)[];
  'budget_nano_usd'?: (number | string | Long);
  /**
   * 0 clears the limit.
   */
  'rpm'?: (number);
  'tpm'?: (number);
  'budget_period'?: (_gateway_accounting_v1_BudgetPeriod);
  /**
   * 0: never.
   */
  'expires_at_ms'?: (number | string | Long);
  /**
   * Empty: no team.
   */
  'team_id'?: (string);
  /**
   * Replaces the whole map.
   */
  'metadata'?: ({[key: string]: string});
  'response_storage_off'?: (boolean);
}

/**
 * The fields of a key that UpdateKey can change; which of them apply is the request's update_mask.
 */
export interface KeyPatch__Output {
  'name': (string);
  'models': (string)[];
  'budget_nano_usd': (number);
  /**
   * 0 clears the limit.
   */
  'rpm': (number);
  'tpm': (number);
  'budget_period': (_gateway_accounting_v1_BudgetPeriod__Output);
  /**
   * 0: never.
   */
  'expires_at_ms': (number);
  /**
   * Empty: no team.
   */
  'team_id': (string);
  /**
   * Replaces the whole map.
   */
  'metadata': ({[key: string]: string});
  'response_storage_off': (boolean);
}
