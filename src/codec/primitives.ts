// Primitive codecs (docs/codec.md §3): booleans, integers, varints, strings, byte strings, JSON text.

import { bytesEqual, fromHex, toHex } from '../util/hex.js';
import type { Codec, Json } from './codec.js';
import { CodecError } from './errors.js';
import { canonicalJson, JSON_DEPTH_MAX, jsonDepth } from './json.js';
import type { Reader } from './reader.js';

function jsonError(path: string, expected: string): CodecError {
  return new CodecError('codec_invalid_json', `${path || '$'}: expected ${expected}`, path);
}

const utf8 = new TextEncoder();

/** Whether the UTF-8 form of `s` exceeds `bytesMax` (a UTF-16 code unit is at most 3 UTF-8 bytes). */
function longerThan(s: string, bytesMax: number): boolean {
  return s.length * 3 > bytesMax && utf8.encode(s).length > bytesMax;
}

function primitive<T>(
  kind: 'bool' | 'u8' | 'u16' | 'u32' | 'u64' | 'varuint' | 'varint' | 'string' | 'bytes' | 'json',
  minBytes: number,
  impl: Pick<Codec<T>, 'encode' | 'decode' | 'toJson' | 'fromJson'>,
): Codec<T> {
  return { name: undefined, minBytes, ...impl, describe: () => ({ kind }), children: () => [] };
}

export const bool: Codec<boolean> = primitive('bool', 1, {
  encode: (w, v) => w.u8(v ? 1 : 0),
  decode: (r) => {
    const at = r.pos;
    const b = r.u8();
    if (b > 1) throw new CodecError('codec_invalid_bool', `boolean byte ${b}`, at);
    return b === 1;
  },
  toJson: (v) => v,
  fromJson: (j, path) => {
    if (typeof j !== 'boolean') throw jsonError(path, 'a boolean');
    return j;
  },
});

function fixedInt(kind: 'u8' | 'u16' | 'u32', bytes: number, max: number): Codec<number> {
  const read = (r: Reader) => (bytes === 1 ? r.u8() : bytes === 2 ? r.u16() : r.u32());
  return primitive(kind, bytes, {
    encode: (w, v) => (bytes === 1 ? w.u8(v) : bytes === 2 ? w.u16(v) : w.u32(v)),
    decode: read,
    toJson: (v) => v,
    fromJson: (j, path) => {
      if (typeof j !== 'number' || !Number.isInteger(j) || j < 0 || j > max) {
        throw jsonError(path, `an integer 0..${max}`);
      }
      return j;
    },
  });
}

export const u8 = fixedInt('u8', 1, 0xff);
export const u16 = fixedInt('u16', 2, 0xffff);
export const u32 = fixedInt('u32', 4, 0xffffffff);

function bigFromJson(j: unknown, path: string, max: bigint): bigint {
  let v: bigint | undefined;
  if (typeof j === 'string' && /^(0|[1-9][0-9]{0,39})$/.test(j)) v = BigInt(j);
  else if (typeof j === 'number' && Number.isSafeInteger(j) && j >= 0) v = BigInt(j);
  if (v === undefined || v > max) throw jsonError(path, `a decimal integer string 0..${max}`);
  return v;
}

/** Fixed 8-byte little-endian unsigned integer; JSON form is a decimal string. */
export const u64: Codec<bigint> = primitive('u64', 8, {
  encode: (w, v) => w.u64(v),
  decode: (r) => r.u64(),
  toJson: (v) => v.toString(),
  fromJson: (j, path) => bigFromJson(j, path, (1n << 64n) - 1n),
});

/** Canonical LEB128 unsigned integer up to 2^53-1 (heights, times, counts). */
export const varuint: Codec<number> = primitive('varuint', 1, {
  encode: (w, v) => w.varuint(v),
  decode: (r) => r.varuint(),
  toJson: (v) => v,
  fromJson: (j, path) => {
    if (typeof j !== 'number' || !Number.isSafeInteger(j) || j < 0)
      throw jsonError(path, 'a non-negative integer');
    return j;
  },
});

/** Largest magnitude of a signed varint: zig-zag doubling must stay a safe integer. */
export const VARINT_MAGNITUDE_MAX = 2 ** 52 - 1;

/**
 * Signed integer (docs/codec.md §2.3): zig-zag mapped (0, -1, 1, -2, … → 0, 1, 2, 3, …) then canonical
 * LEB128, so small magnitudes of either sign take one byte. Magnitude at most 2^52-1.
 */
export const varint: Codec<number> = primitive('varint', 1, {
  encode: (w, v) => w.varuint(v >= 0 ? v * 2 : -v * 2 - 1),
  decode: (r) => {
    const at = r.pos;
    const z = r.varuint();
    if (z > VARINT_MAGNITUDE_MAX * 2)
      throw new CodecError('codec_varint_overflow', 'signed varint magnitude above 2^52-1', at);
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  },
  toJson: (v) => v,
  fromJson: (j, path) => {
    if (typeof j !== 'number' || !Number.isSafeInteger(j) || Math.abs(j) > VARINT_MAGNITUDE_MAX)
      throw jsonError(path, 'an integer');
    return j;
  },
});

/** Canonical LEB128 unsigned integer up to 2^bits-1, as a bigint; JSON form is a decimal string. */
export function biguint(bits: number): Codec<bigint> {
  const max = (1n << BigInt(bits)) - 1n;
  return {
    name: undefined,
    minBytes: 1,
    encode: (w, v) => w.bigVaruint(v),
    decode: (r) => r.bigVaruint(bits),
    toJson: (v) => v.toString(),
    fromJson: (j, path) => bigFromJson(j, path, max),
    describe: () => ({ kind: 'biguint', bits }),
    children: () => [],
  };
}

/** A UTF-8 string with a length prefix; `bytesMax` bounds its encoded size. */
export function string(bytesMax = Number.MAX_SAFE_INTEGER): Codec<string> {
  return primitive('string', 1, {
    encode: (w, v) => w.string(v),
    decode: (r) => r.string(bytesMax),
    toJson: (v) => v,
    fromJson: (j, path) => {
      // The same byte limit as decoding, so JSON never admits a value its encoding would not.
      if (typeof j !== 'string' || longerThan(j, bytesMax))
        throw jsonError(path, `a string of at most ${bytesMax} bytes`);
      return j;
    },
  });
}

/** A byte string with a length prefix; JSON form is lowercase hex. */
export function bytes(bytesMax = Number.MAX_SAFE_INTEGER): Codec<Uint8Array> {
  return primitive('bytes', 1, {
    encode: (w, v) => {
      w.varuint(v.length);
      w.bytes(v);
    },
    decode: (r) => r.copy(r.length(Math.min(bytesMax, r.limits.bytesMax), 1)),
    toJson: (v) => toHex(v),
    fromJson: (j, path) => {
      const v = typeof j === 'string' ? fromHex(j) : undefined;
      if (v === undefined || v.length > bytesMax) throw jsonError(path, 'a hex string');
      return v;
    },
  });
}

/** Exactly `length` bytes, no prefix (hashes, keys, signatures); JSON form is lowercase hex. */
export function fixedBytes(length: number): Codec<Uint8Array> {
  return {
    name: undefined,
    minBytes: length,
    encode: (w, v) => {
      if (v.length !== length)
        throw new CodecError('codec_invalid_value', `expected ${length} bytes, got ${v.length}`);
      w.bytes(v);
    },
    decode: (r) => r.copy(length),
    toJson: (v) => toHex(v),
    fromJson: (j, path) => {
      const v = typeof j === 'string' ? fromHex(j, length) : undefined;
      if (v === undefined) throw jsonError(path, `a hex string of ${length} bytes`);
      return v;
    },
    describe: () => ({ kind: 'fixed_bytes', length }),
    children: () => [],
  };
}

/**
 * Any JSON value, stored as its canonical text (docs/codec.md §3.7: sorted keys, no whitespace).
 * Decoding re-serialises and compares, so one value has exactly one encoding.
 */
export function jsonValue(bytesMax = 64 * 1024): Codec<Json> {
  const enc = new TextEncoder();
  return primitive('json', 1, {
    encode: (w, v) => w.string(canonicalJson(v)),
    decode: (r) => {
      const at = r.pos;
      const text = r.string(bytesMax);
      if (jsonDepth(text) > JSON_DEPTH_MAX) {
        throw new CodecError('codec_depth_limit', `JSON value nested deeper than ${JSON_DEPTH_MAX}`, at);
      }
      let parsed: Json;
      try {
        parsed = JSON.parse(text) as Json;
      } catch {
        throw new CodecError('codec_invalid_value', 'JSON value does not parse', at);
      }
      if (!bytesEqual(enc.encode(canonicalJson(parsed)), enc.encode(text))) {
        throw new CodecError('codec_invalid_value', 'JSON value is not in canonical form', at);
      }
      return parsed;
    },
    toJson: (v) => v,
    fromJson: (j, path) => {
      let text: string;
      try {
        text = canonicalJson(j as Json);
      } catch {
        throw jsonError(path, 'a JSON value');
      }
      if (longerThan(text, bytesMax) || jsonDepth(text) > JSON_DEPTH_MAX) {
        throw jsonError(path, `a JSON value of at most ${bytesMax} bytes and ${JSON_DEPTH_MAX} levels`);
      }
      return JSON.parse(text) as Json;
    },
  });
}
