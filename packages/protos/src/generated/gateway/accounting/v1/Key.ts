// Original file: proto/gateway/accounting/v1/accounting.proto

import type { BudgetPeriod as _gateway_accounting_v1_BudgetPeriod, BudgetPeriod__Output as _gateway_accounting_v1_BudgetPeriod__Output } from '../../../gateway/accounting/v1/BudgetPeriod.js';
import type { Balance as _gateway_accounting_v1_Balance, Balance__Output as _gateway_accounting_v1_Balance__Output } from '../../../gateway/accounting/v1/Balance.js';
import type { Long } from '@grpc/proto-loader';

export interface Key {
  /**
   * Opaque identifier, "key_…"; safe to show and log.
   */
  'id'?: (string);
  'name'?: (string);
  /**
   * Group ids the key may call; "*" means every group.
   */
  'models'?: (string)[];
  'budget_nano_usd'?: (number | string | Long);
  /**
   * Requests per minute; 0 means no limit.
   */
  'rpm'?: (number);
  /**
   * Unix milliseconds.
   */
  'created_at_ms'?: (number | string | Long);
  /**
   * Unix milliseconds; 0 while the key is active.
   */
  'revoked_at_ms'?: (number | string | Long);
  /**
   * "sk-…" and the last four characters, to tell keys apart.
   */
  'hint'?: (string);
  /**
   * Tokens (prompt + completion) per minute; 0 means no limit.
   */
  'tpm'?: (number);
  'budget_period'?: (_gateway_accounting_v1_BudgetPeriod);
  /**
   * Empty when the key belongs to no team.
   */
  'team_id'?: (string);
  'metadata'?: ({[key: string]: string});
  /**
   * Unix milliseconds; 0: never expires.
   */
  'expires_at_ms'?: (number | string | Long);
  /**
   * Unix milliseconds of the last rotation; 0: never rotated.
   */
  'rotated_at_ms'?: (number | string | Long);
  /**
   * Unix milliseconds until which the secret before the last rotation still works; 0: it does not.
   */
  'previous_secret_expires_at_ms'?: (number | string | Long);
  'balance'?: (_gateway_accounting_v1_Balance | null);
  /**
   * The operator keeps no Responses API responses for this key (false on keys made before it).
   */
  'response_storage_off'?: (boolean);
}

export interface Key__Output {
  /**
   * Opaque identifier, "key_…"; safe to show and log.
   */
  'id': (string);
  'name': (string);
  /**
   * Group ids the key may call; "*" means every group.
   */
  'models': (string)[];
  'budget_nano_usd': (number);
  /**
   * Requests per minute; 0 means no limit.
   */
  'rpm': (number);
  /**
   * Unix milliseconds.
   */
  'created_at_ms': (number);
  /**
   * Unix milliseconds; 0 while the key is active.
   */
  'revoked_at_ms': (number);
  /**
   * "sk-…" and the last four characters, to tell keys apart.
   */
  'hint': (string);
  /**
   * Tokens (prompt + completion) per minute; 0 means no limit.
   */
  'tpm': (number);
  'budget_period': (_gateway_accounting_v1_BudgetPeriod__Output);
  /**
   * Empty when the key belongs to no team.
   */
  'team_id': (string);
  'metadata': ({[key: string]: string});
  /**
   * Unix milliseconds; 0: never expires.
   */
  'expires_at_ms': (number);
  /**
   * Unix milliseconds of the last rotation; 0: never rotated.
   */
  'rotated_at_ms': (number);
  /**
   * Unix milliseconds until which the secret before the last rotation still works; 0: it does not.
   */
  'previous_secret_expires_at_ms': (number);
  'balance': (_gateway_accounting_v1_Balance__Output | null);
  /**
   * The operator keeps no Responses API responses for this key (false on keys made before it).
   */
  'response_storage_off': (boolean);
}
