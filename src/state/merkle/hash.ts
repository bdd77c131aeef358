// The hashing rules of the state tree (docs/design/state.md). Pure and dependency-light: only the ledger
// hash (crypto/hash.ts, BLAKE2b-256 through @noble/hashes in a browser bundle), so the SDK and a light
// client can import it. Every node kind has its own prefix byte, so a leaf can never pass for an inner
// node nor the empty subtree for either:
//   keyHash   = H(state key)                       the position of a row: 256 bits, most significant first
//   valueHash = H(value bytes)
//   leaf      = H(0x00 ‖ keyHash ‖ valueHash)
//   internal  = H(0x01 ‖ left ‖ right)             an empty child counts as EMPTY_SUBTREE
//   EMPTY_SUBTREE = H(0x02)
// The header's state root (version 2) is the top hash with the lowest bit of its last byte cleared: every
// ledger hash has that bit set, so a version-2 root can never be taken for a version-1 (multiset) one.

import { HASH_BYTES, hash } from '../../crypto/hash.js';

export const TREE_HASH_BYTES = HASH_BYTES;
/** A key hash has 256 bits, so no position is deeper than this. */
export const TREE_DEPTH_MAX = HASH_BYTES * 8;

const LEAF_PREFIX = 0x00;
const INTERNAL_PREFIX = 0x01;
const EMPTY_PREFIX = 0x02;

/** The hash standing for a subtree without any key (also the top of the empty tree). */
export const EMPTY_SUBTREE: Uint8Array = hash(Uint8Array.of(EMPTY_PREFIX));

export function keyHash(key: Uint8Array): Uint8Array {
  return hash(key);
}

export function valueHash(value: Uint8Array): Uint8Array {
  return hash(value);
}

// One input buffer for every node hash: hashing is synchronous and the buffer never escapes.
const scratch = new Uint8Array(1 + 2 * HASH_BYTES);

export function leafHash(kh: Uint8Array, vh: Uint8Array): Uint8Array {
  const b = scratch;
  b[0] = LEAF_PREFIX;
  b.set(kh, 1);
  b.set(vh, 1 + HASH_BYTES);
  return hash(b);
}

export function internalHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const b = scratch;
  b[0] = INTERNAL_PREFIX;
  b.set(left, 1);
  b.set(right, 1 + HASH_BYTES);
  return hash(b);
}

/** Bit `i` of a key hash, 0 = the most significant bit of byte 0 (0: left, 1: right). */
export function bitAt(kh: Uint8Array, i: number): number {
  return (kh[i >> 3]! >> (7 - (i & 7))) & 1;
}

/** Whether `a` and `b` agree on their first `bits` bits. */
export function samePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) if (a[i] !== b[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (a[whole]! & mask) === (b[whole]! & mask);
}

/** The header's (version 2) state root of a tree whose top hash is `top`. */
export function stateRootOf(top: Uint8Array): Uint8Array {
  const root = top.slice();
  root[HASH_BYTES - 1]! &= 0xfe;
  return root;
}

/**
 * The header version a state root belongs to: 1 (the multiset root of the first blocks, a ledger hash,
 * lowest bit set) or 2 (the state tree's root, lowest bit clear).
 */
export function stateRootVersion(root: Uint8Array): 1 | 2 {
  return (root[root.length - 1]! & 1) === 1 ? 1 : 2;
}
