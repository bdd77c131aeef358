// Numeric amounts (docs/data-model.md §Numeric): an unsigned 128-bit mantissa and a decimal scale.
// Never floating point. Text and JSON form: a plain decimal string such as "12.50" (the scale is the
// number of fraction digits written, so "12.50" and "12.5" are different encodings of equal values).

import type { Codec } from '../codec/codec.js';
import { CodecError } from '../codec/errors.js';

export const NUMERIC_SCALE_MAX = 28;
export const MANTISSA_MAX = (1n << 128n) - 1n;

export interface Numeric {
  readonly mantissa: bigint;
  readonly scale: number;
}

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export function parseNumeric(text: string): Numeric | undefined {
  const m = DECIMAL.exec(text);
  if (m === null) return undefined;
  const frac = m[2] ?? '';
  if (frac.length > NUMERIC_SCALE_MAX) return undefined;
  const mantissa = BigInt(m[1]! + frac);
  if (mantissa > MANTISSA_MAX) return undefined;
  return { mantissa, scale: frac.length };
}

export function formatNumeric(n: Numeric): string {
  if (n.scale === 0) return n.mantissa.toString();
  const digits = n.mantissa.toString().padStart(n.scale + 1, '0');
  return `${digits.slice(0, -n.scale)}.${digits.slice(-n.scale)}`;
}

/** Rescales to `scale` exactly; undefined when that would lose digits or overflow. */
export function rescale(n: Numeric, scale: number): bigint | undefined {
  if (scale === n.scale) return n.mantissa;
  if (scale > n.scale) {
    const v = n.mantissa * 10n ** BigInt(scale - n.scale);
    return v > MANTISSA_MAX ? undefined : v;
  }
  const div = 10n ** BigInt(n.scale - scale);
  return n.mantissa % div === 0n ? n.mantissa / div : undefined;
}

export function numeric(text: string): Numeric {
  const n = parseNumeric(text);
  if (n === undefined) throw new RangeError(`not a decimal amount: ${text}`);
  return n;
}

/** Wire form: mantissa as LEB128 (≤ 128 bits) then the scale as one byte (≤ 28). */
export const NumericCodec: Codec<Numeric> = {
  name: 'Numeric',
  minBytes: 2,
  encode(w, v) {
    w.bigVaruint(v.mantissa);
    w.u8(v.scale);
  },
  decode(r) {
    const mantissa = r.bigVaruint(128);
    const at = r.pos;
    const scale = r.u8();
    if (scale > NUMERIC_SCALE_MAX)
      throw new CodecError('codec_invalid_value', `scale ${scale} above ${NUMERIC_SCALE_MAX}`, at);
    return { mantissa, scale };
  },
  toJson: (v) => formatNumeric(v),
  fromJson(j, path) {
    const n =
      typeof j === 'string'
        ? parseNumeric(j)
        : typeof j === 'number' && Number.isSafeInteger(j) && j >= 0
          ? { mantissa: BigInt(j), scale: 0 }
          : undefined;
    if (n === undefined)
      throw new CodecError(
        'codec_invalid_json',
        `${path || '$'}: expected a decimal string like "12.50"`,
        path,
      );
    return n;
  },
  describe: () => ({
    kind: 'struct',
    fields: [
      { name: 'mantissa', type: { kind: 'biguint', bits: 128 } },
      { name: 'scale', type: { kind: 'u8' } },
    ],
  }),
  children: () => [],
};
