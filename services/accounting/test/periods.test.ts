import { describe, expect, it } from 'vitest';
import { dayStart, periodEndOf, periodStartOf, utcDay } from '../src/domain/periods.js';

// Budget periods on UTC calendar boundaries.

const at = (iso: string) => Date.parse(iso);

describe('budget periods', () => {
  it('start days at UTC midnight, weeks on Monday, months on the first', () => {
    const now = at('2026-11-25T17:30:00Z'); // a Wednesday
    expect(periodStartOf('daily', now, 0)).toBe(at('2026-11-25T00:00:00Z'));
    expect(periodStartOf('weekly', now, 0)).toBe(at('2026-11-23T00:00:00Z'));
    expect(periodStartOf('weekly', at('2026-11-23T00:00:00Z'), 0)).toBe(at('2026-11-23T00:00:00Z'));
    expect(periodStartOf('weekly', at('2026-11-22T23:59:59Z'), 0)).toBe(at('2026-11-16T00:00:00Z'));
    expect(periodStartOf('monthly', now, 0)).toBe(at('2026-11-01T00:00:00Z'));
    expect(periodStartOf(null, now, 1234)).toBe(1234);
  });

  it('end them at the next boundary, across a year and a leap day', () => {
    expect(periodEndOf('monthly', at('2026-12-01T00:00:00Z'))).toBe(at('2027-01-01T00:00:00Z'));
    expect(periodEndOf('monthly', at('2028-02-01T00:00:00Z'))).toBe(at('2028-03-01T00:00:00Z'));
    expect(periodEndOf('daily', at('2028-02-28T00:00:00Z'))).toBe(at('2028-02-29T00:00:00Z'));
    expect(periodEndOf('weekly', at('2026-12-28T00:00:00Z'))).toBe(at('2027-01-04T00:00:00Z'));
    expect(periodEndOf(null, 0)).toBeUndefined();
    expect(periodStartOf('monthly', at('2028-02-29T12:00:00Z'), 0)).toBe(at('2028-02-01T00:00:00Z'));
  });

  it('name UTC days and refuse days that do not exist', () => {
    expect(utcDay(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31');
    expect(dayStart('2028-02-29')).toBe(at('2028-02-29T00:00:00Z'));
    expect(dayStart('2026-02-29')).toBeUndefined();
    expect(dayStart('2026-13-01')).toBeUndefined();
    expect(dayStart('yesterday')).toBeUndefined();
  });
});
