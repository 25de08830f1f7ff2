// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Key as _gateway_accounting_v1_Key, Key__Output as _gateway_accounting_v1_Key__Output } from '../../../gateway/accounting/v1/Key.js';
import type { GroupUsage as _gateway_accounting_v1_GroupUsage, GroupUsage__Output as _gateway_accounting_v1_GroupUsage__Output } from '../../../gateway/accounting/v1/GroupUsage.js';
import type { Team as _gateway_accounting_v1_Team, Team__Output as _gateway_accounting_v1_Team__Output } from '../../../gateway/accounting/v1/Team.js';
import type { DailySpend as _gateway_accounting_v1_DailySpend, DailySpend__Output as _gateway_accounting_v1_DailySpend__Output } from '../../../gateway/accounting/v1/DailySpend.js';
import type { Long } from '@grpc/proto-loader';

export interface GetUsageResponse {
  'key'?: (_gateway_accounting_v1_Key | null);
  'spent_nano_usd'?: (number | string | Long);
  /**
   * Held for calls still in flight.
   */
  'reserved_nano_usd'?: (number | string | Long);
  /**
   * Spend per group in the current period (lifetime budgets: since the key's creation).
   */
  'groups'?: (_gateway_accounting_v1_GroupUsage)[];
  /**
   * Unix milliseconds: the start of the period the figures cover.
   */
  'period_start_ms'?: (number | string | Long);
  /**
   * The key's team, when it has one.
   */
  'team'?: (_gateway_accounting_v1_Team | null);
  /**
   * The last 30 UTC days, oldest first, today included (days without spend too).
   */
  'daily'?: (_gateway_accounting_v1_DailySpend)[];
  /**
   * The groups' cached prompt tokens and what they saved, summed over the same period.
   */
  'cached_tokens'?: (number | string | Long);
  'cache_saved_nano_usd'?: (number | string | Long);
}

export interface GetUsageResponse__Output {
  'key': (_gateway_accounting_v1_Key__Output | null);
  'spent_nano_usd': (number);
  /**
   * Held for calls still in flight.
   */
  'reserved_nano_usd': (number);
  /**
   * Spend per group in the current period (lifetime budgets: since the key's creation).
   */
  'groups': (_gateway_accounting_v1_GroupUsage__Output)[];
  /**
   * Unix milliseconds: the start of the period the figures cover.
   */
  'period_start_ms': (number);
  /**
   * The key's team, when it has one.
   */
  'team': (_gateway_accounting_v1_Team__Output | null);
  /**
   * The last 30 UTC days, oldest first, today included (days without spend too).
   */
  'daily': (_gateway_accounting_v1_DailySpend__Output)[];
  /**
   * The groups' cached prompt tokens and what they saved, summed over the same period.
   */
  'cached_tokens': (number);
  'cache_saved_nano_usd': (number);
}
