// Money is counted in whole nano-dollars (1e-9 USD), so sums are exact integers: no float drift
// between what the ledger holds and what the usage says. Video prices convert to a whole number of
// nano-dollars per unit (the config validator enforces it); chat token prices are exact decimals
// (token-price.ts) and each call's cost is rounded once, to the nearest nano-dollar.

export const NANOS_PER_USD = 1_000_000_000;

/** Whole nano-dollars for a USD amount given in decimal (rounded to the nearest nano-dollar). */
export function usdToNanos(usd: number): number {
  return Math.round(usd * NANOS_PER_USD);
}

/** USD for a nano-dollar amount, as a plain number for JSON (9 decimals at most). */
export function nanosToUsd(nanos: number): number {
  return Number((nanos / NANOS_PER_USD).toFixed(9));
}

/**
 * Nano-dollars per token for a price in USD per million tokens, or undefined when the price has
 * more than three decimals (it would not be a whole number of nano-dollars per token).
 */
export function nanosPerTokenFromMtokPrice(usdPerMillionTokens: number): number | undefined {
  return wholeOrUndefined(usdPerMillionTokens * 1000);
}

/** Nano-dollars for a USD unit price, or undefined when it has more than nine decimals. */
export function nanosFromUnitPrice(usd: number): number | undefined {
  return wholeOrUndefined(usd * NANOS_PER_USD);
}

function wholeOrUndefined(value: number): number | undefined {
  const rounded = Math.round(value);
  // Allow for binary float noise such as 0.14 * 1000 = 140.00000000000003.
  return Math.abs(value - rounded) < 1e-6 && Number.isSafeInteger(rounded) ? rounded : undefined;
}

export { compareDecimal, type Decimal, formatDecimal, maxDecimal, parseDecimal } from './decimal.js';
export {
  inWindow,
  parseUtcWindow,
  ratesAt,
  type TokenCost,
  type TokenCounts,
  type TokenPrice,
  type TokenPriceWindow,
  type TokenRates,
  tokenCost,
  worstCaseTokenCost,
} from './token-price.js';
