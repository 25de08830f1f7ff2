import type { BudgetPeriod } from '@gateway/contracts';

// Budget periods on UTC calendar boundaries: days from midnight, weeks from Monday midnight,
// months from the first. Every boundary is a UTC midnight, so any period's spend is the sum of
// whole days of the daily spend.

export type { BudgetPeriod };

const DAY_MS = 86_400_000;

/** The start (Unix ms) of the period of kind `period` that contains `now`; lifetime budgets start at `createdAtMs`. */
export function periodStartOf(period: BudgetPeriod, now: number, createdAtMs: number): number {
  if (period === null) return createdAtMs;
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  if (period === 'daily') return day;
  if (period === 'weekly') {
    // 1970-01-01 was a Thursday: (getUTCDay() + 6) % 7 counts days since Monday.
    const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
    return day - sinceMonday * DAY_MS;
  }
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** When the period that started at `start` ends (Unix ms); undefined for lifetime budgets. */
export function periodEndOf(period: BudgetPeriod, start: number): number | undefined {
  if (period === null) return undefined;
  if (period === 'daily') return start + DAY_MS;
  if (period === 'weekly') return start + 7 * DAY_MS;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** "YYYY-MM-DD" of the UTC day containing `ms`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Unix ms of a "YYYY-MM-DD" UTC day's midnight, or undefined when it is not a real day. */
export function dayStart(day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || utcDay(ms) !== day ? undefined : ms;
}

export { DAY_MS };
