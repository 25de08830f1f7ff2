import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Decimal,
  parseDecimal,
  parseUtcWindow,
  ratesAt,
  type TokenPrice,
  type TokenPriceWindow,
  type TokenRates,
  tokenCost,
  worstCaseTokenCost,
} from '../src/index.js';

const d = (text: string): Decimal => {
  const parsed = parseDecimal(text);
  if (!parsed) throw new Error(`bad decimal ${text}`);
  return parsed;
};
const rates = (input: string, cacheHit: string, output: string): TokenRates => ({
  input: d(input),
  cacheHit: d(cacheHit),
  output: d(output),
});
const window = (utc: string, r: TokenRates): TokenPriceWindow => {
  const span = parseUtcWindow(utc);
  if (!span) throw new Error(`bad window ${utc}`);
  return { utc, ...span, rates: r };
};

const flash = rates('0.14', '0.0028', '0.28');
const flashPeak = rates('0.28', '0.0056', '0.56');
const deepseekFlash: TokenPrice = {
  kind: 'per_token',
  base: flash,
  windows: [window('01:00-04:00', flashPeak), window('06:00-10:00', flashPeak)],
};
const at = (hours: number, minutes: number, seconds = 0, ms = 0) => Date.UTC(2026, 10, 28, hours, minutes, seconds, ms);

/** The exact cost in nano-dollars as a fraction numerator / denominator, computed independently. */
function exactNanos(counts: { prompt: bigint; cached: bigint; completion: bigint }, r: TokenRates): [bigint, bigint] {
  const scale = Math.max(r.input.scale, r.cacheHit.scale, r.output.scale);
  const at = (x: Decimal) => x.units * 10n ** BigInt(scale - x.scale);
  const numerator =
    ((counts.prompt - counts.cached) * at(r.input) + counts.cached * at(r.cacheHit) + counts.completion * at(r.output)) * 1000n;
  return [numerator, 10n ** BigInt(scale)];
}

// Up to 1,000,000 USD per million tokens: the counts below then stay far from 2^53 nano-dollars.
const decimalArb = fc.record({ units: fc.bigInt({ min: 0n, max: 10n ** 6n }), scale: fc.integer({ min: 0, max: 12 }) });
const ratesArb = fc.record({ input: decimalArb, cacheHit: decimalArb, output: decimalArb });
const countsArb = fc
  .tuple(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 200_000 }))
  .map(([prompt, cached, completion]) => ({
    prompt_tokens: prompt,
    cached_tokens: Math.min(cached, prompt),
    completion_tokens: completion,
  }));

describe('tokenCost', () => {
  it('bills cache hits, misses and output exactly', () => {
    // 435 M hit tokens at 0.0028 + 0.77 M miss at 0.14 + 0.18 M output at 0.28 = 1.3762 USD.
    const cost = tokenCost({ prompt_tokens: 435_770_000, cached_tokens: 435_000_000, completion_tokens: 180_000 }, flash);
    expect(cost).toEqual({ costNanoUsd: 1_376_200_000, cacheSavedNanoUsd: 59_682_000_000 });
    // deepseek-v4-pro: 100 × 435 + 900 × 3.625 + 10 × 870 = 55,462.5 nano-dollars: one rounding, half up.
    const pro = rates('0.435', '0.003625', '0.87');
    expect(tokenCost({ prompt_tokens: 1000, cached_tokens: 900, completion_tokens: 10 }, pro)).toEqual({
      costNanoUsd: 55_463,
      cacheSavedNanoUsd: 388_238,
    });
  });

  it('rounds once, ties half up', () => {
    const one = (price: string) =>
      tokenCost({ prompt_tokens: 1, cached_tokens: 0, completion_tokens: 0 }, rates(price, price, '0')).costNanoUsd;
    expect(one('0.0005')).toBe(1);
    expect(one('0.0015')).toBe(2);
    expect(one('0.0025')).toBe(3);
    expect(one('0.0004999999')).toBe(0);
    expect(one('0.0014999')).toBe(1);
    expect(one('0.0028')).toBe(3);
    // Three tokens at 0.0005 is 1.5 nano-dollars billed as 2, not 3 × round(0.5) = 3.
    expect(tokenCost({ prompt_tokens: 3, cached_tokens: 0, completion_tokens: 0 }, rates('0.0005', '0.0005', '0')).costNanoUsd).toBe(2);
  });

  it('is within half a nano-dollar of the exact cost, per call and for the saving', () => {
    fc.assert(
      fc.property(countsArb, ratesArb, (counts, r) => {
        const { costNanoUsd, cacheSavedNanoUsd } = tokenCost(counts, r);
        const [num, den] = exactNanos(
          { prompt: BigInt(counts.prompt_tokens), cached: BigInt(counts.cached_tokens), completion: BigInt(counts.completion_tokens) },
          r,
        );
        const error = BigInt(costNanoUsd) * den - num;
        // |billed − exact| ≤ ½, and a tie goes up: −½ < billed − exact ≤ ½.
        expect(2n * error <= den && -2n * error < den).toBe(true);
        const scale = Math.max(r.input.scale, r.cacheHit.scale);
        const saving = r.input.units * 10n ** BigInt(scale - r.input.scale) - r.cacheHit.units * 10n ** BigInt(scale - r.cacheHit.scale);
        const savedNum = saving > 0n ? BigInt(counts.cached_tokens) * saving * 1000n : 0n;
        const savedErr = BigInt(cacheSavedNanoUsd) * 10n ** BigInt(scale) - savedNum;
        expect(2n * savedErr <= 10n ** BigInt(scale) && -2n * savedErr < 10n ** BigInt(scale)).toBe(true);
      }),
    );
  });

  it('keeps a sum of N calls within N/2 nano-dollars of the exact sum', () => {
    fc.assert(
      fc.property(fc.array(countsArb, { minLength: 1, maxLength: 50 }), ratesArb, (calls, r) => {
        let billed = 0n;
        let num = 0n;
        let den = 1n;
        for (const c of calls) {
          billed += BigInt(tokenCost(c, r).costNanoUsd);
          // The same rates every call, so the same denominator.
          const [n, dn] = exactNanos(
            { prompt: BigInt(c.prompt_tokens), cached: BigInt(c.cached_tokens), completion: BigInt(c.completion_tokens) },
            r,
          );
          num += n;
          den = dn;
        }
        const error = billed * den - num;
        expect(2n * (error < 0n ? -error : error) <= BigInt(calls.length) * den).toBe(true);
      }),
    );
  });

  it('clamps cached tokens to [0, prompt tokens]', () => {
    const all = tokenCost({ prompt_tokens: 1000, cached_tokens: 1000, completion_tokens: 0 }, flash);
    expect(tokenCost({ prompt_tokens: 1000, cached_tokens: 5000, completion_tokens: 0 }, flash)).toEqual(all);
    expect(all).toEqual({ costNanoUsd: 2800, cacheSavedNanoUsd: 137_200 });
    expect(tokenCost({ prompt_tokens: 1000, cached_tokens: -5, completion_tokens: 0 }, flash)).toEqual({
      costNanoUsd: 140_000,
      cacheSavedNanoUsd: 0,
    });
  });

  it('saves nothing when the cache-hit price is not below the input price', () => {
    expect(tokenCost({ prompt_tokens: 10, cached_tokens: 10, completion_tokens: 0 }, rates('1', '2', '1'))).toEqual({
      costNanoUsd: 20_000,
      cacheSavedNanoUsd: 0,
    });
  });

  it('refuses counts that are not whole numbers >= 0, and saturates at the largest safe integer', () => {
    expect(() => tokenCost({ prompt_tokens: 1.5, cached_tokens: 0, completion_tokens: 0 }, flash)).toThrow(RangeError);
    expect(() => tokenCost({ prompt_tokens: 1, cached_tokens: 0, completion_tokens: -1 }, flash)).toThrow(RangeError);
    expect(() => tokenCost({ prompt_tokens: Number.NaN, cached_tokens: 0, completion_tokens: 0 }, flash)).toThrow(RangeError);
    const huge = rates('1e12', '1e12', '1e12');
    expect(tokenCost({ prompt_tokens: 1_000_000, cached_tokens: 0, completion_tokens: 0 }, huge).costNanoUsd).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('ratesAt', () => {
  it("applies DeepSeek's peak windows, start inclusive and end exclusive, to the minute", () => {
    expect(ratesAt(deepseekFlash, at(0, 59, 59, 999))).toBe(flash);
    expect(ratesAt(deepseekFlash, at(1, 0))).toBe(flashPeak);
    expect(ratesAt(deepseekFlash, at(3, 59, 59, 999))).toBe(flashPeak);
    expect(ratesAt(deepseekFlash, at(4, 0))).toBe(flash);
    expect(ratesAt(deepseekFlash, at(5, 59))).toBe(flash);
    expect(ratesAt(deepseekFlash, at(6, 0))).toBe(flashPeak);
    expect(ratesAt(deepseekFlash, at(9, 59))).toBe(flashPeak);
    expect(ratesAt(deepseekFlash, at(10, 0))).toBe(flash);
    expect(ratesAt(deepseekFlash, at(23, 59))).toBe(flash);
    // Before 1970 the day's minute is still counted forwards from midnight.
    expect(ratesAt(deepseekFlash, Date.UTC(1969, 11, 31, 2, 30))).toBe(flashPeak);
    expect(ratesAt(deepseekFlash, Date.UTC(1969, 11, 31, 4, 30))).toBe(flash);
  });

  it('applies a window that wraps midnight on both sides of it', () => {
    const night = rates('1', '1', '1');
    const price: TokenPrice = { kind: 'per_token', base: flash, windows: [window('22:00-02:00', night)] };
    expect(ratesAt(price, at(21, 59))).toBe(flash);
    expect(ratesAt(price, at(22, 0))).toBe(night);
    expect(ratesAt(price, at(23, 59, 59))).toBe(night);
    expect(ratesAt(price, at(0, 0))).toBe(night);
    expect(ratesAt(price, at(1, 59))).toBe(night);
    expect(ratesAt(price, at(2, 0))).toBe(flash);
    const toMidnight: TokenPrice = { kind: 'per_token', base: flash, windows: [window('22:00-00:00', night)] };
    expect(ratesAt(toMidnight, at(23, 59))).toBe(night);
    expect(ratesAt(toMidnight, at(0, 0))).toBe(flash);
    const allDay: TokenPrice = { kind: 'per_token', base: flash, windows: [window('00:00-24:00', night)] };
    expect(ratesAt(allDay, at(0, 0))).toBe(night);
    expect(ratesAt(allDay, at(23, 59, 59, 999))).toBe(night);
  });

  it('reads HH:MM-HH:MM from 00:00 to 24:00', () => {
    expect(parseUtcWindow('01:00-04:00')).toEqual({ startMinute: 60, endMinute: 240 });
    expect(parseUtcWindow('22:30-24:00')).toEqual({ startMinute: 1350, endMinute: 1440 });
    expect(parseUtcWindow('23:00-01:15')).toEqual({ startMinute: 1380, endMinute: 75 });
    for (const bad of [
      '1:00-04:00',
      '01:00-04:00 ',
      '01:00–04:00',
      '24:00-01:00',
      '04:00-04:00',
      '25:00-26:00',
      '01:60-02:00',
      '23:00-24:01',
    ])
      expect(parseUtcWindow(bad)).toBeUndefined();
  });
});

describe('worstCaseTokenCost', () => {
  it('takes the highest input and output price of any window, every prompt token uncached, rounded up', () => {
    // 1000 × 280 + 10 × 560 nano-dollars at peak.
    expect(worstCaseTokenCost(deepseekFlash, 1000, 10)).toBe(285_600);
    // 0.0004 and 0.0007 USD per million tokens: 0.4 and 0.7 nano-dollars a token.
    const price: TokenPrice = { kind: 'per_token', base: rates('0.0004', '0.0001', '0.0007'), windows: [] };
    expect(worstCaseTokenCost(price, 1, 1)).toBe(2);
    expect(worstCaseTokenCost(price, 2, 0)).toBe(1);
    expect(worstCaseTokenCost(price, 5, 0)).toBe(2);
    expect(worstCaseTokenCost(price, 0, 0)).toBe(0);
    expect(worstCaseTokenCost(price, 0.5, 0)).toBe(1);
  });

  it('is never below the cost of the same counts, at any time of day and any cached count', () => {
    const windowArb = fc
      .tuple(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1440 }), ratesArb)
      .filter(([s, e]) => s !== e)
      .map(([s, e, r]) => ({ utc: `${s}-${e}`, startMinute: s, endMinute: e, rates: r }));
    fc.assert(
      fc.property(
        ratesArb,
        fc.array(windowArb, { maxLength: 3 }),
        countsArb,
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (base, windows, counts, atMs) => {
          const price: TokenPrice = { kind: 'per_token', base, windows };
          const worst = worstCaseTokenCost(price, counts.prompt_tokens, counts.completion_tokens);
          expect(worst).toBeGreaterThanOrEqual(tokenCost(counts, ratesAt(price, atMs)).costNanoUsd);
          for (const r of [base, ...windows.map((w) => w.rates)]) expect(worst).toBeGreaterThanOrEqual(tokenCost(counts, r).costNanoUsd);
        },
      ),
    );
  });
});
