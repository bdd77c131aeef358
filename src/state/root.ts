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
