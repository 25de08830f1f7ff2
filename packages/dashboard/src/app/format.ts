// How the page writes figures. Money keeps every decimal the API gives (amounts are exact to the
// nano-dollar, so a cheap call shows as $0.000042, not $0.00). Times are UTC, as budget periods
// and daily spend are.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 9 });
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatUsd(value: number): string {
  return usd.format(value);
}

export function formatCount(value: number): string {
  return count.format(value);
}

/** Milliseconds with one decimal. */
export function formatMs(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/** A ratio (0.0024) as a percentage (0.24%). */
export function formatRate(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}

/** Unix seconds as `2026-11-24 10:05 UTC`; `—` for none. */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  return `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A UTC day `YYYY-MM-DD`, `days` from today. */
export function utcDay(days = 0, now = Date.now()): string {
  return new Date(now + days * 86_400_000).toISOString().slice(0, 10);
}
