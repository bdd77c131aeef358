// Amounts and metadata as the builders take them: an amount as a decimal string ("12.50"), a bigint
// (scale 0) or a Numeric; metadata as a plain object or a Map.

import type { Json } from '../codec/codec.js';
import { type Numeric, numeric } from '../model/numeric.js';

export type AmountLike = string | bigint | Numeric;
export type MetadataLike = Record<string, Json> | Map<string, Json>;

export function toAmount(a: AmountLike): Numeric {
  if (typeof a === 'string') return numeric(a);
  if (typeof a === 'bigint') {
    if (a < 0n) throw new RangeError('amounts are never negative');
    return { mantissa: a, scale: 0 };
  }
  return a;
}

export function toMetadata(m: MetadataLike | undefined): Map<string, Json> {
  if (m === undefined) return new Map();
  return m instanceof Map ? new Map(m) : new Map(Object.entries(m));
}
