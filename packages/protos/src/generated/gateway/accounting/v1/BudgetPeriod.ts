// Original file: proto/gateway/accounting/v1/accounting.proto

/**
 * How often a budget starts again, at UTC calendar boundaries.
 */
export const BudgetPeriod = {
  /**
   * Read as lifetime.
   */
  BUDGET_PERIOD_UNSPECIFIED: 'BUDGET_PERIOD_UNSPECIFIED',
  /**
   * Never resets: the budget covers the whole life of the key or team.
   */
  BUDGET_PERIOD_LIFETIME: 'BUDGET_PERIOD_LIFETIME',
  BUDGET_PERIOD_DAILY: 'BUDGET_PERIOD_DAILY',
  /**
   * Weeks start on Monday.
   */
  BUDGET_PERIOD_WEEKLY: 'BUDGET_PERIOD_WEEKLY',
  BUDGET_PERIOD_MONTHLY: 'BUDGET_PERIOD_MONTHLY',
} as const;

/**
 * How often a budget starts again, at UTC calendar boundaries.
 */
export type BudgetPeriod =
  /**
   * Read as lifetime.
   */
  | 'BUDGET_PERIOD_UNSPECIFIED'
  | 0
  /**
   * Never resets: the budget covers the whole life of the key or team.
   */
  | 'BUDGET_PERIOD_LIFETIME'
  | 1
  | 'BUDGET_PERIOD_DAILY'
  | 2
  /**
   * Weeks start on Monday.
   */
  | 'BUDGET_PERIOD_WEEKLY'
  | 3
  | 'BUDGET_PERIOD_MONTHLY'
  | 4

/**
 * How often a budget starts again, at UTC calendar boundaries.
 */
export type BudgetPeriod__Output = typeof BudgetPeriod[keyof typeof BudgetPeriod]
