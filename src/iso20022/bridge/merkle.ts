// Merkle tree hashing and inclusion proofs over audit entry hashes, as RFC 6962 §2.1 (and RFC 9162
// §2.1.3 for proof verification) define them, with H = the ledger hash (src/crypto/hash.ts):
//   leaf  = H(0x00 ‖ d)           node = H(0x01 ‖ left ‖ right)
//   MTH(D[n]) splits at k, the largest power of two below n. MTH of no leaves = H(empty).
// The domain-separation bytes keep a leaf from ever passing for an inner node.

import { hash } from '../../crypto/hash.js';
import { bytesEqual } from '../../util/hex.js';

function leafHash(d: Uint8Array): Uint8Array {
  const b = new Uint8Array(d.length + 1);
  b[0] = 0x00;
  b.set(d, 1);
  return hash(b);
}

function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const b = new Uint8Array(1 + left.length + right.length);
  b[0] = 0x01;
  b.set(left, 1);
  b.set(right, 1 + left.length);
  return hash(b);
}

/** The largest power of two strictly below n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtreeRoot(leaves: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const n = to - from;
  if (n === 1) return leafHash(leaves[from]!);
  const k = split(n);
  return nodeHash(subtreeRoot(leaves, from, from + k), subtreeRoot(leaves, from + k, to));
}

/** MTH(D[n]) of RFC 6962 §2.1. */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return leaves.length === 0 ? hash(new Uint8Array(0)) : subtreeRoot(leaves, 0, leaves.length);
}

function path(m: number, leaves: readonly Uint8Array[], from: number, to: number): Uint8Array[] {
  const n = to - from;
  if (n === 1) return [];
  const k = split(n);
  return m < k
    ? [...path(m, leaves, from, from + k), subtreeRoot(leaves, from + k, to)]
    : [...path(m - k, leaves, from + k, to), subtreeRoot(leaves, from, from + k)];
}

/** PATH(m, D[n]) of RFC 6962 §2.1.1: the audit path of leaf `index`, leaf side first. */
export function merkleProof(index: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length) return [];
  return path(index, leaves, 0, leaves.length);
}

/** RFC 9162 §2.1.3.2: does `proof` show leaf `d` at `index` of a tree of `size` leaves with `root`? */
export function verifyMerkleProof(
  d: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash(d);
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(r, root);
}
