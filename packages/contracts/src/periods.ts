import type { BudgetPeriod__Output } from '@gateway/protos';

// Budget periods as the admin API names them and as they cross gRPC.

/** `null`: the budget covers the whole life of the key or team. */
export type BudgetPeriod = 'daily' | 'weekly' | 'monthly' | null;

export const BUDGET_PERIODS = ['daily', 'weekly', 'monthly'] as const;

const TO_WIRE = {
  daily: 'BUDGET_PERIOD_DAILY',
  weekly: 'BUDGET_PERIOD_WEEKLY',
  monthly: 'BUDGET_PERIOD_MONTHLY',
} as const;

export function budgetPeriodToWire(
  period: BudgetPeriod,
): 'BUDGET_PERIOD_DAILY' | 'BUDGET_PERIOD_WEEKLY' | 'BUDGET_PERIOD_MONTHLY' | 'BUDGET_PERIOD_LIFETIME' {
  return period === null ? 'BUDGET_PERIOD_LIFETIME' : TO_WIRE[period];
}

/** Unspecified (an older caller) reads as lifetime. */
export function budgetPeriodFromWire(period: BudgetPeriod__Output | string): BudgetPeriod {
  switch (period) {
    case 'BUDGET_PERIOD_DAILY':
      return 'daily';
    case 'BUDGET_PERIOD_WEEKLY':
      return 'weekly';
    case 'BUDGET_PERIOD_MONTHLY':
      return 'monthly';
    default:
      return null;
  }
}
