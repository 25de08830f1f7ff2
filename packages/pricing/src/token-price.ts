import { type Decimal, maxDecimal, pow10, unitsAtScale } from './decimal.js';

// Token prices with the vendor's structure (cache-hit input, time-of-day windows), billed
// exactly: the cost is computed in BigInt at the prices' own precision and rounded once.

/** USD per million tokens. */
export interface TokenRates {
  readonly input: Decimal;
  readonly cacheHit: Decimal;
  readonly output: Decimal;
}

export interface TokenPriceWindow {
  /** As written in the configuration: `01:00-04:00`. */
  readonly utc: string;
  /** UTC minute of the day the window opens (inclusive), 0-1439. */
  readonly startMinute: number;
  /** UTC minute of the day it closes (exclusive), 0-1440; below startMinute when it wraps midnight. */
  readonly endMinute: number;
  readonly rates: TokenRates;
}

export interface TokenPrice {
  readonly kind: 'per_token';
  /** In force outside every window. */
  readonly base: TokenRates;
  /** Never overlapping (the config validator checks it). */
  readonly windows: readonly TokenPriceWindow[];
}

export interface TokenCounts {
  prompt_tokens: number;
  /** Prompt tokens served from the vendor's cache; clamped to [0, prompt_tokens]. */
  cached_tokens: number;
  completion_tokens: number;
}

export interface TokenCost {
  /** Whole nano-dollars, the exact cost rounded half up. */
  costNanoUsd: number;
  /** What the cached tokens would have cost more at the uncached input price, rounded the same way. */
  cacheSavedNanoUsd: number;
}

const MINUTES_PER_DAY = 1440;
const MS_PER_DAY = 86_400_000;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * `HH:MM-HH:MM` in UTC, times 00:00-24:00 (a window cannot start at 24:00), start ≠ end;
 * undefined otherwise. An end at or before the start wraps midnight: `22:00-00:00` is 22:00-24:00.
 */
export function parseUtcWindow(text: string): { startMinute: number; endMinute: number } | undefined {
  const match = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(text);
  if (!match) return undefined;
  const [start, end] = [minuteOf(match[1], match[2]), minuteOf(match[3], match[4])];
  if (start === undefined || end === undefined || start === MINUTES_PER_DAY || start === end) return undefined;
  return { startMinute: start, endMinute: end };
}

function minuteOf(hours = '', minutes = ''): number | undefined {
  const minute = Number(hours) * 60 + Number(minutes);
  return Number(minutes) < 60 && minute <= MINUTES_PER_DAY ? minute : undefined;
}

/** Whether the UTC minute of the day falls in the window (start inclusive, end exclusive). */
export function inWindow(window: Pick<TokenPriceWindow, 'startMinute' | 'endMinute'>, minute: number): boolean {
  return window.startMinute < window.endMinute
    ? minute >= window.startMinute && minute < window.endMinute
    : minute >= window.startMinute || minute < window.endMinute;
}

/** The rates in force at an instant: the window covering its UTC minute, else the base. */
export function ratesAt(price: TokenPrice, atMs: number): TokenRates {
  if (price.windows.length === 0) return price.base;
  const minute = Math.floor((((atMs % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) / 60_000);
  for (const window of price.windows) if (inWindow(window, minute)) return window.rates;
  return price.base;
}

/**
 * Rates brought to one scale S ≥ 3 once, so a cost is a few BigInt operations:
 * nano-dollars = Σ tokens × units / 10^(S−3), since 1 USD per million tokens is 1,000 nano-dollars per token.
 */
interface Scaled {
  readonly input: bigint;
  readonly cacheHit: bigint;
  readonly output: bigint;
  /** input − cacheHit, or 0 when the cache-hit price is not lower. */
  readonly saving: bigint;
  /** 10^(S−3). */
  readonly divisor: bigint;
  /** divisor / 2 (0 when the divisor is 1): added before the division, it rounds half up. */
  readonly half: bigint;
  /** The same as plain numbers, for calls whose sums stay below 2^53 (every real one): no BigInt on the metering path. */
  readonly fast:
    | { input: number; cacheHit: number; output: number; saving: number; divisor: number; half: number; max: number }
    | undefined;
}

// Keyed by the rates object: the config builds each once, so a metered call finds its scale here.
const scaledCache = new WeakMap<TokenRates, Scaled>();

function scaled(rates: TokenRates): Scaled {
  let s = scaledCache.get(rates);
  if (s === undefined) {
    const scale = Math.max(3, rates.input.scale, rates.cacheHit.scale, rates.output.scale);
    const input = unitsAtScale(rates.input, scale);
    const cacheHit = unitsAtScale(rates.cacheHit, scale);
    const divisor = pow10(scale - 3);
    const output = unitsAtScale(rates.output, scale);
    const saving = input > cacheHit ? input - cacheHit : 0n;
    const half = divisor / 2n;
    const max = largest([input, cacheHit, output, divisor]);
    s = {
      input,
      cacheHit,
      output,
      saving,
      divisor,
      half,
      fast:
        max <= MAX_SAFE
          ? {
              input: Number(input),
              cacheHit: Number(cacheHit),
              output: Number(output),
              saving: Number(saving),
              divisor: Number(divisor),
              half: Number(half),
              max: Number(max),
            }
          : undefined,
    };
    scaledCache.set(rates, s);
  }
  return s;
}

function tokens(n: number, name: string): bigint {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a whole number >= 0, got ${n}`);
  return BigInt(n);
}

/** A BigInt nano-dollar amount as a number; saturates at 2^53 − 1 (9 million USD), which validated prices never reach. */
function toNanos(value: bigint): number {
  return value > MAX_SAFE ? Number.MAX_SAFE_INTEGER : Number(value);
}

/**
 * The exact cost of a call at these rates, rounded once to the nearest nano-dollar (ties up):
 * within half a nano-dollar of the exact value. Counts must be whole numbers >= 0.
 */
export function tokenCost(counts: TokenCounts, rates: TokenRates): TokenCost {
  const s = scaled(rates);
  const fast = s.fast;
  const { prompt_tokens: p, completion_tokens: n } = counts;
  // Every partial sum is at most (prompt + completion) × the largest rate: below 2^53, plain
  // numbers are exact integers, and the division is made exact below.
  if (fast && Number.isSafeInteger(p) && Number.isSafeInteger(n) && p >= 0 && n >= 0 && (p + n + 1) * fast.max <= Number.MAX_SAFE_INTEGER) {
    const c = Math.min(Math.max(Number.isNaN(counts.cached_tokens) ? 0 : Math.floor(counts.cached_tokens), 0), p);
    const exact = (p - c) * fast.input + c * fast.cacheHit + n * fast.output;
    return {
      costNanoUsd: divideDown(exact + fast.half, fast.divisor),
      cacheSavedNanoUsd: divideDown(c * fast.saving + fast.half, fast.divisor),
    };
  }
  const prompt = tokens(counts.prompt_tokens, 'prompt_tokens');
  const completion = tokens(counts.completion_tokens, 'completion_tokens');
  const cachedCount = Math.min(Math.max(counts.cached_tokens, 0), counts.prompt_tokens);
  const cached = tokens(Number.isNaN(cachedCount) ? 0 : Math.floor(cachedCount), 'cached_tokens');
  const exact = (prompt - cached) * s.input + cached * s.cacheHit + completion * s.output;
  return {
    costNanoUsd: toNanos((exact + s.half) / s.divisor),
    cacheSavedNanoUsd: toNanos((cached * s.saving + s.half) / s.divisor),
  };
}

/** The largest of some BigInts (Math.max takes numbers only). */
function largest(values: readonly bigint[]): bigint {
  let max = 0n;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** ⌊a / b⌋ for whole numbers below 2^53: the float quotient corrected by one where it rounded across a whole number. */
function divideDown(a: number, b: number): number {
  let q = Math.floor(a / b);
  if (q * b > a) q -= 1;
  else if ((q + 1) * b <= a) q += 1;
  return q;
}

const worstCache = new WeakMap<TokenPrice, Scaled>();

/**
 * The highest input and the highest output price over the base and every window (a cache-hit
 * price counts as an input price: the validator keeps it at or below, but a hold must not rely on it).
 */
function highest(price: TokenPrice): Scaled {
  let s = worstCache.get(price);
  if (s === undefined) {
    let input = maxDecimal(price.base.input, price.base.cacheHit);
    let output = price.base.output;
    for (const { rates } of price.windows) {
      input = maxDecimal(maxDecimal(input, rates.input), rates.cacheHit);
      output = maxDecimal(output, rates.output);
    }
    s = scaled({ input, cacheHit: input, output });
    worstCache.set(price, s);
  }
  return s;
}

/**
 * The most these counts can cost at any time of day, every prompt token uncached, rounded up:
 * never below what tokenCost bills for the same counts (and no more cached), whatever the window.
 * Fractional counts are taken up to the next whole token.
 */
export function worstCaseTokenCost(price: TokenPrice, promptTokens: number, completionTokens: number): number {
  const s = highest(price);
  const prompt = tokens(Math.ceil(promptTokens), 'promptTokens');
  const completion = tokens(Math.ceil(completionTokens), 'completionTokens');
  return toNanos((prompt * s.input + completion * s.output + s.divisor - 1n) / s.divisor);
}
