// Exact decimals for prices as vendors publish them (0.003625 USD per million tokens is not a
// whole number of nano-dollars per token, and no binary float holds it exactly).

/** A non-negative decimal: value = units / 10^scale. Normalized: no trailing zeros in units while scale > 0. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Beyond any price a vendor publishes, and past every finite double (5e-324 has scale 324); keeps the BigInts small. */
const MAX_EXPONENT = 400;

const DECIMAL = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact decimal written, or undefined for a negative, NaN, infinite or malformed value.
 * A number is read through its shortest round-trip string (`String(n)`, so 0.0028 is 28e-4
 * and 1e-7 is 1e-7): that is the decimal a YAML file wrote.
 */
export function parseDecimal(value: number | string): Decimal | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    // String(-0) is "0", which is what a price of -0 means.
    return parseDecimal(String(value));
  }
  const match = DECIMAL.exec(value);
  if (!match) return undefined;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return undefined;
  const exponent = match[3] === undefined ? 0 : Number(match[3]);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  return normalize(BigInt(whole + fraction), fraction.length - exponent);
}

/** Removes trailing zeros (and a negative scale), so equal values have equal representations. */
function normalize(units: bigint, scale: number): Decimal {
  if (scale < 0) return { units: units * pow10(-scale), scale: 0 };
  let u = units;
  let s = scale;
  if (u === 0n) return { units: 0n, scale: 0 };
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s -= 1;
  }
  return { units: u, scale: s };
}

export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** The units of `d` at a scale at least its own: d = result / 10^scale. */
export function unitsAtScale(d: Decimal, scale: number): bigint {
  return d.units * pow10(scale - d.scale);
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimal(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = unitsAtScale(a, scale);
  const y = unitsAtScale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The larger of two decimals (the first when equal). */
export function maxDecimal(a: Decimal, b: Decimal): Decimal {
  return compareDecimal(a, b) >= 0 ? a : b;
}

/** Plain decimal notation, no exponent: `0.003625`. */
export function formatDecimal(d: Decimal): string {
  if (d.scale === 0) return d.units.toString();
  const digits = d.units.toString().padStart(d.scale + 1, '0');
  return `${digits.slice(0, -d.scale)}.${digits.slice(-d.scale)}`;
}
