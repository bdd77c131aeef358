// Exact comparison of decimal numbers written as JSON strings ("12.50", the Numeric JSON form) or JSON
// numbers, for filters and sorting. No floating point: digits are compared as text.

/** A decimal reduced to sign, integer digits without leading zeros, fraction digits without trailing zeros. */
export interface Decimal {
  readonly negative: boolean;
  readonly int: string;
  readonly frac: string;
}

const DECIMAL_TEXT = /^(-)?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;
/** Longer digit strings are not treated as numbers (bounds the work per comparison). */
export const DECIMAL_DIGITS_MAX = 100;

/** The decimal `v` denotes, or undefined when it is not a plain decimal string or finite number. */
export function asDecimal(v: unknown): Decimal | undefined {
  let text: string;
  if (typeof v === 'string') text = v;
  else if (typeof v === 'number' && Number.isFinite(v)) text = String(v);
  else return undefined;
  if (text.length > DECIMAL_DIGITS_MAX) return undefined;
  const m = DECIMAL_TEXT.exec(text);
  if (m === null) return undefined;
  const int = m[2]!;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const zero = int === '0' && frac === '';
  return { negative: m[1] === '-' && !zero, int, frac };
}

function compareMagnitude(a: Decimal, b: Decimal): number {
  if (a.int.length !== b.int.length) return a.int.length < b.int.length ? -1 : 1;
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  const n = Math.max(a.frac.length, b.frac.length);
  const fa = a.frac.padEnd(n, '0');
  const fb = b.frac.padEnd(n, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

export function compareDecimals(a: Decimal, b: Decimal): number {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const m = compareMagnitude(a, b);
  return a.negative ? -m : m;
}
