import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimal, formatDecimal, maxDecimal, parseDecimal } from '../src/index.js';

describe('parseDecimal', () => {
  it('reads the decimal a vendor published, exactly', () => {
    expect(parseDecimal(0.0028)).toEqual({ units: 28n, scale: 4 });
    expect(parseDecimal(0.003625)).toEqual({ units: 3625n, scale: 6 });
    expect(parseDecimal(0.435)).toEqual({ units: 435n, scale: 3 });
    expect(parseDecimal(10.7)).toEqual({ units: 107n, scale: 1 });
    expect(parseDecimal(2)).toEqual({ units: 2n, scale: 0 });
    expect(parseDecimal(0)).toEqual({ units: 0n, scale: 0 });
    expect(parseDecimal(-0)).toEqual({ units: 0n, scale: 0 });
    expect(parseDecimal('0.14000')).toEqual({ units: 14n, scale: 2 });
    expect(parseDecimal('.5')).toEqual({ units: 5n, scale: 1 });
    expect(parseDecimal('3.')).toEqual({ units: 3n, scale: 0 });
  });

  it('reads exponent forms, as String(n) writes small and large numbers', () => {
    expect(String(1e-7)).toBe('1e-7');
    expect(parseDecimal(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(parseDecimal(2.5e-8)).toEqual({ units: 25n, scale: 9 });
    expect(parseDecimal(1e21)).toEqual({ units: 10n ** 21n, scale: 0 });
    expect(parseDecimal('1.25E+2')).toEqual({ units: 125n, scale: 0 });
    expect(parseDecimal(Number.MIN_VALUE)).toEqual({ units: 5n, scale: 324 });
  });

  it('rejects negatives, NaN, Infinity and malformed text', () => {
    for (const bad of [-1, -0.0028, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(parseDecimal(bad)).toBeUndefined();
    for (const bad of ['', '.', '-1', '+1', '1.2.3', 'e5', '1e', '0x10', ' 1', '1,5', '1e999']) expect(parseDecimal(bad)).toBeUndefined();
  });

  it("round-trips every finite non-negative double's shortest string", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }), (n) => {
        const d = parseDecimal(n);
        expect(d).toBeDefined();
        expect(Number(formatDecimal(d!))).toBe(Math.abs(n));
      }),
    );
  });

  it('compares exactly across scales', () => {
    const a = parseDecimal('0.0028')!;
    const b = parseDecimal('0.00280000000000000001')!;
    expect(compareDecimal(a, b)).toBe(-1);
    expect(compareDecimal(b, a)).toBe(1);
    expect(compareDecimal(a, parseDecimal(0.0028)!)).toBe(0);
    expect(maxDecimal(a, b)).toBe(b);
    expect(formatDecimal(parseDecimal(0.003625)!)).toBe('0.003625');
    expect(formatDecimal(parseDecimal(12)!)).toBe('12');
  });
});
