// Inclusion and exclusion proofs of the state tree (docs/design/state.md §Proofs), their binary form and
// the verifier. Pure: the SDK and light clients import this file (and hash.ts) only.
//
// A proof names the key's position: `siblings[i]` is the hash beside the key's path at depth i + 1 (root
// first), and the path ends at depth n = siblings.length in
//   - the key's own leaf (inclusion: its key hash is the key's, its value hash the value's),
//   - another key's leaf sharing the first n bits (exclusion: that leaf is alone in the subtree), or
//   - an empty subtree (exclusion).
// Binary form: u8 format (1) | u8 leaf flag (0 none, 1 leaf) | [keyHash 32 | valueHash 32] |
// u16 BE n (≤ 256) | ⌈n/8⌉ bytes bitmap, bit i (msb first) set when sibling i is EMPTY_SUBTREE |
// 32 bytes for each other sibling. Nothing may follow.

import { bytesEqual } from '../../util/hex.js';
import {
  bitAt,
  EMPTY_SUBTREE,
  internalHash,
  keyHash,
  leafHash,
  samePrefix,
  stateRootOf,
  TREE_DEPTH_MAX,
  TREE_HASH_BYTES,
  valueHash,
} from './hash.js';

export interface StateProofLeaf {
  keyHash: Uint8Array;
  valueHash: Uint8Array;
}

export interface StateProof {
  /** The leaf where the key's path ends; undefined when it ends in an empty subtree. */
  leaf: StateProofLeaf | undefined;
  /** Sibling hashes along the path, root side first. */
  siblings: Uint8Array[];
}

const PROOF_FORMAT = 1;

/**
 * Does `proof` show that under the version-2 state root `root` the key `key` holds `value` (inclusion)
 * or, with `value` undefined, holds nothing (exclusion)? Never throws on a malformed proof: false.
 */
export function verifyStateProof(
  root: Uint8Array,
  key: Uint8Array,
  value: Uint8Array | undefined,
  proof: StateProof,
): boolean {
  const { leaf, siblings } = proof;
  if (root.length !== TREE_HASH_BYTES || !Array.isArray(siblings) || siblings.length > TREE_DEPTH_MAX)
    return false;
  if (
    leaf !== undefined &&
    (leaf.keyHash?.length !== TREE_HASH_BYTES || leaf.valueHash?.length !== TREE_HASH_BYTES)
  )
    return false;
  const kh = keyHash(key);
  const n = siblings.length;
  let cur: Uint8Array;
  if (value !== undefined) {
    if (leaf === undefined || !bytesEqual(leaf.keyHash, kh) || !bytesEqual(leaf.valueHash, valueHash(value)))
      return false;
    cur = leafHash(leaf.keyHash, leaf.valueHash);
  } else if (leaf === undefined) {
    cur = EMPTY_SUBTREE;
  } else {
    // Another key's leaf, alone in the subtree the key would be in.
    if (bytesEqual(leaf.keyHash, kh) || !samePrefix(leaf.keyHash, kh, n)) return false;
    cur = leafHash(leaf.keyHash, leaf.valueHash);
  }
  for (let i = n - 1; i >= 0; i--) {
    const sib = siblings[i];
    if (!(sib instanceof Uint8Array) || sib.length !== TREE_HASH_BYTES) return false;
    cur = bitAt(kh, i) === 1 ? internalHash(sib, cur) : internalHash(cur, sib);
  }
  return bytesEqual(stateRootOf(cur), root);
}

export function encodeStateProof(proof: StateProof): Uint8Array {
  const n = proof.siblings.length;
  const present = proof.siblings.filter((s) => !bytesEqual(s, EMPTY_SUBTREE));
  const leafBytes = proof.leaf === undefined ? 0 : 2 * TREE_HASH_BYTES;
  const bitmapBytes = (n + 7) >> 3;
  const out = new Uint8Array(2 + leafBytes + 2 + bitmapBytes + present.length * TREE_HASH_BYTES);
  let o = 0;
  out[o++] = PROOF_FORMAT;
  out[o++] = proof.leaf === undefined ? 0 : 1;
  if (proof.leaf !== undefined) {
    out.set(proof.leaf.keyHash, o);
    out.set(proof.leaf.valueHash, o + TREE_HASH_BYTES);
    o += leafBytes;
  }
  out[o++] = n >> 8;
  out[o++] = n & 0xff;
  for (let i = 0; i < n; i++)
    if (bytesEqual(proof.siblings[i]!, EMPTY_SUBTREE)) out[o + (i >> 3)]! |= 0x80 >> (i & 7);
  o += bitmapBytes;
  for (const s of present) {
    out.set(s, o);
    o += TREE_HASH_BYTES;
  }
  return out;
}

/** The proof in `bytes`, or undefined when they are not exactly one well-formed proof. */
export function decodeStateProof(bytes: Uint8Array): StateProof | undefined {
  let o = 0;
  const need = (k: number) => o + k <= bytes.length;
  if (!need(2) || bytes[0] !== PROOF_FORMAT || bytes[1]! > 1) return undefined;
  const hasLeaf = bytes[1] === 1;
  o = 2;
  let leaf: StateProofLeaf | undefined;
  if (hasLeaf) {
    if (!need(2 * TREE_HASH_BYTES)) return undefined;
    leaf = {
      keyHash: bytes.slice(o, o + TREE_HASH_BYTES),
      valueHash: bytes.slice(o + TREE_HASH_BYTES, o + 2 * TREE_HASH_BYTES),
    };
    o += 2 * TREE_HASH_BYTES;
  }
  if (!need(2)) return undefined;
  const n = (bytes[o]! << 8) | bytes[o + 1]!;
  o += 2;
  if (n > TREE_DEPTH_MAX) return undefined;
  const bitmapBytes = (n + 7) >> 3;
  if (!need(bitmapBytes)) return undefined;
  const bitmap = bytes.subarray(o, o + bitmapBytes);
  o += bitmapBytes;
  // Bits past n must be zero: one proof, one encoding.
  if (n & 7 && (bitmap[bitmapBytes - 1]! & (0xff >> (n & 7))) !== 0) return undefined;
  const siblings: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    if ((bitmap[i >> 3]! & (0x80 >> (i & 7))) !== 0) siblings.push(EMPTY_SUBTREE);
    else {
      if (!need(TREE_HASH_BYTES)) return undefined;
      const s = bytes.slice(o, o + TREE_HASH_BYTES);
      // A sibling equal to EMPTY_SUBTREE must use the bitmap (canonical form).
      if (bytesEqual(s, EMPTY_SUBTREE)) return undefined;
      siblings.push(s);
      o += TREE_HASH_BYTES;
    }
  }
  if (o !== bytes.length) return undefined;
  return { leaf, siblings };
}
