// The state root (README.md §State root): a multiset hash. Each persisted entry contributes
// leaf = hash(key ‖ 0x00 ‖ value) read as a 256-bit big-endian integer; the accumulator is the sum of all
// leaves mod 2^256, so it can be updated per change (subtract the old leaf, add the new one) and does not
// depend on the order entries were written in. The published root is hash(accumulator as 32 bytes).
// This gives replicas and rebuilds a cheap equality check; it is not a proof system (no inclusion proofs,
// and a multiset hash is only as collision resistant as its leaves and width allow).

import { hash } from '../crypto/hash.js';

const MOD_MASK = (1n << 256n) - 1n;
export const ROOT_BYTES = 32;

export function leafValue(key: Uint8Array, value: Uint8Array): bigint {
  const buf = new Uint8Array(key.length + 1 + value.length);
  buf.set(key, 0);
  buf[key.length] = 0x00;
  buf.set(value, key.length + 1);
  return bigFromBytes(hash(buf));
}

/** 32 bytes as a big-endian integer: four 64-bit words (cheaper than going through hex text). */
function bigFromBytes(h: Uint8Array): bigint {
  const v = new DataView(h.buffer, h.byteOffset, h.byteLength);
  return (
    (v.getBigUint64(0) << 192n) |
    (v.getBigUint64(8) << 128n) |
    (v.getBigUint64(16) << 64n) |
    v.getBigUint64(24)
  );
}

/**
 * A sum of leaves (addLeaf of leafValue) kept in eight 32-bit words, for a bulk build of millions of
 * rows: no bigint and no buffer allocated per row (each row's `key ‖ 0x00 ‖ value` goes to one reused
 * buffer). `value` is the same accumulator as the bigint sum.
 */
export class LeafSum {
  /** The sum mod 2^256, most significant word first. */
  private readonly words = new Uint32Array(8);
  private buf = Buffer.allocUnsafeSlow(256);

  add(key: Uint8Array, value: Uint8Array): void {
    const n = key.length + 1 + value.length;
    if (n > this.buf.length) this.buf = Buffer.allocUnsafeSlow(Math.max(n, 2 * this.buf.length));
    const b = this.buf;
    b.set(key, 0);
    b[key.length] = 0x00;
    b.set(value, key.length + 1);
    const h = hash(b.subarray(0, n));
    const w = this.words;
    let carry = 0;
    for (let i = 7; i >= 0; i--) {
      const x = ((h[4 * i]! << 24) | (h[4 * i + 1]! << 16) | (h[4 * i + 2]! << 8) | h[4 * i + 3]!) >>> 0;
      const s = w[i]! + x + carry;
      w[i] = s; // mod 2^32
      carry = s > 0xffff_ffff ? 1 : 0;
    }
  }

  get value(): bigint {
    let v = 0n;
    for (const x of this.words) v = (v << 32n) | BigInt(x);
    return v;
  }
}

export function addLeaf(sum: bigint, leaf: bigint): bigint {
  return (sum + leaf) & MOD_MASK;
}

export function subLeaf(sum: bigint, leaf: bigint): bigint {
  return (sum - leaf) & MOD_MASK;
}

/** The published root of an accumulator value. */
export function publishRoot(sum: bigint): Uint8Array {
  const bytes = new Uint8Array(ROOT_BYTES);
  let v = sum;
  for (let i = ROOT_BYTES - 1; i >= 0; i--) {
    bytes[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return hash(bytes);
}
