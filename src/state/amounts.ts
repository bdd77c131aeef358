// Amount arithmetic for the executor (docs/data-model.md §Numeric): balances and totals are mantissas at
// their definition's scale, bigint only, bounded by the 128-bit mantissa. Never floating point.

import { MANTISSA_MAX, NUMERIC_SCALE_MAX, type Numeric } from '../model/numeric.js';

export type ScaledAmount =
  | { ok: true; mantissa: bigint }
  | { ok: false; why: 'zero' | 'inexact' | 'overflow' };

/**
 * `amount` as a mantissa at `scale`: exact or refused. "1.50" at scale 1 is 15; "1.55" at scale 1 is
 * inexact; a value whose mantissa at `scale` would pass 2^128-1 overflows.
 */
export function toScale(amount: Numeric, scale: number): ScaledAmount {
  if (amount.mantissa <= 0n) return { ok: false, why: 'zero' };
  if (amount.scale > NUMERIC_SCALE_MAX) return { ok: false, why: 'inexact' };
  if (scale >= amount.scale) {
    const v = amount.mantissa * 10n ** BigInt(scale - amount.scale);
    return v > MANTISSA_MAX ? { ok: false, why: 'overflow' } : { ok: true, mantissa: v };
  }
  const div = 10n ** BigInt(amount.scale - scale);
  return amount.mantissa % div === 0n
    ? { ok: true, mantissa: amount.mantissa / div }
    : { ok: false, why: 'inexact' };
}

/** a + b when it fits the mantissa, else undefined. */
export function checkedAdd(a: bigint, b: bigint): bigint | undefined {
  const s = a + b;
  return s > MANTISSA_MAX ? undefined : s;
}
