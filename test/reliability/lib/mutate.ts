// Byte mutations for the codec fuzzer (docs/design/testing.md "codec fuzzing"): bit flips,
// interesting byte values, truncations, extensions, deletions, duplications, splices of two valid
// encodings, and length-field inflation. Plain Node has no coverage feedback, so the mutations aim at
// what a canonical length-prefixed codec gets wrong: length prefixes (docs/codec.md §2, §6) are found
// exactly by tracing a decode of the valid input, then rewritten as larger canonical varints.

import fc from 'fast-check';
import type { Codec } from '../../../src/codec/codec.js';
import type { DecodeLimits } from '../../../src/codec/limits.js';
import { Reader } from '../../../src/codec/reader.js';

/** Most mutations stacked on one input: enough to combine a splice with a flip, few enough to stay valid-ish. */
const MUTATIONS_PER_INPUT_MAX = 4;
/** Inflated lengths: just over, far over, and the values that break 32-bit and float arithmetic. */
const INFLATED_LENGTHS = [1, 2, 7, 255, 65_536, 2 ** 31 - 1, 2 ** 32, 2 ** 53 - 1];
const INTERESTING_BYTES = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x54];

/** A decoding cursor that records where each length prefix starts (docs/codec.md §2 "lengths"). */
class TracingReader extends Reader {
  readonly lengthOffsets: number[] = [];
  override length(limit: number, minItemBytes: number): number {
    this.lengthOffsets.push(this.pos);
    return super.length(limit, minItemBytes);
  }
}

/** Offsets of the length prefixes of a valid bare payload (empty when it does not decode). */
export function lengthOffsets<T>(codec: Codec<T>, payload: Uint8Array, limits: DecodeLimits): number[] {
  const r = new TracingReader(payload, limits);
  try {
    codec.decode(r);
  } catch {
    return [];
  }
  return r.lengthOffsets;
}

/** Canonical LEB128 of a non-negative safe integer (docs/codec.md §2). */
export function varuintBytes(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** Reads the varint at `at` without limits: its value and byte length (undefined if malformed). */
function varuintAt(b: Uint8Array, at: number): { value: number; bytes: number } | undefined {
  let value = 0;
  let mul = 1;
  for (let i = 0; i < 8 && at + i < b.length; i++) {
    const byte = b[at + i]!;
    value += (byte & 0x7f) * mul;
    if ((byte & 0x80) === 0) return { value, bytes: i + 1 };
    mul *= 128;
  }
  return undefined;
}

export type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; byte: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'extend'; extra: Uint8Array }
  | { kind: 'delete'; at: number; span: number }
  | { kind: 'duplicate'; at: number; span: number }
  | { kind: 'splice'; at: number; otherAt: number }
  | { kind: 'inflate'; which: number; by: number };

/** A position as a fraction of the length: independent of the input, so mutations shrink well. */
const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('flip' as const), at: fraction, bit: fc.nat(7) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      at: fraction,
      byte: fc.oneof(fc.constantFrom(...INTERESTING_BYTES), fc.nat(255)),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fraction }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('extend' as const),
      extra: fc.uint8Array({ minLength: 1, maxLength: 16 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      at: fraction,
      span: fc.integer({ min: 1, max: 16 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('duplicate' as const),
      at: fraction,
      span: fc.integer({ min: 1, max: 64 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('splice' as const), at: fraction, otherAt: fraction }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('inflate' as const),
      which: fraction,
      by: fc.constantFrom(...INFLATED_LENGTHS),
    }),
  },
);

export const mutationsArb = fc.array(mutationArb, { minLength: 1, maxLength: MUTATIONS_PER_INPUT_MAX });

const at = (f: number, n: number) => Math.min(n, Math.floor(f * (n + 1)));

function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Rewrites the length prefix at `offset` as `value + by` (capped at 2^53 − 1), keeping it canonical. */
function inflate(b: Uint8Array, offset: number, by: number): Uint8Array {
  const v = varuintAt(b, offset);
  if (v === undefined) return b;
  const bigger = Math.min(Number.MAX_SAFE_INTEGER, v.value + by);
  return concat(b.subarray(0, offset), varuintBytes(bigger), b.subarray(offset + v.bytes));
}

/**
 * Applies `m` to `b`. `other` is a second valid encoding (for splices) and `offsets` the length
 * prefixes of `b` when it was still valid (inflation after other edits may hit a shifted byte: fine).
 */
export function applyMutation(b: Uint8Array, m: Mutation, other: Uint8Array, offsets: number[]): Uint8Array {
  const n = b.length;
  switch (m.kind) {
    case 'flip': {
      if (n === 0) return b;
      const c = b.slice();
      const i = Math.min(n - 1, at(m.at, n));
      c[i] = c[i]! ^ (1 << m.bit);
      return c;
    }
    case 'set': {
      if (n === 0) return b;
      const c = b.slice();
      c[Math.min(n - 1, at(m.at, n))] = m.byte;
      return c;
    }
    case 'truncate':
      return b.slice(0, Math.min(at(m.at, n), Math.max(0, n - 1)));
    case 'extend':
      return concat(b, m.extra);
    case 'delete': {
      const i = at(m.at, n);
      return concat(b.subarray(0, i), b.subarray(Math.min(n, i + m.span)));
    }
    case 'duplicate': {
      const i = at(m.at, n);
      return concat(b.subarray(0, i), b.subarray(i, i + m.span), b.subarray(i));
    }
    case 'splice':
      return concat(b.subarray(0, at(m.at, n)), other.subarray(at(m.otherAt, other.length)));
    case 'inflate': {
      if (offsets.length === 0) return b;
      const offset = offsets[Math.min(offsets.length - 1, Math.floor(m.which * offsets.length))]!;
      return offset < n ? inflate(b, offset, m.by) : b;
    }
  }
}

export function applyMutations(
  b: Uint8Array,
  ms: readonly Mutation[],
  other: Uint8Array,
  offsets: number[],
): Uint8Array {
  let out = b;
  for (const m of ms) out = applyMutation(out, m, other, offsets);
  return out;
}
