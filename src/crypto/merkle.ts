// The one binary Merkle tree of the ledger, parameterised by its domain-separation bytes, with H = the
// ledger hash (hash.ts). The shape is RFC 6962 §2.1's: MTH(D[n]) splits at k, the largest power of two
// below n; built bottom-up, that is "hash neighbours pairwise, carry an odd last node up unchanged".
// The empty tree's root is H(empty).
//   leaf = H(leafPrefix ‖ d)   (or d itself when the domain has no leaf prefix)
//   node = H(nodePrefix ‖ left ‖ right)
//
// Two domains are in use, and every hash they give is fixed by the stored chains and the wire:
// - BLOCK_MERKLE (the block header's transactionsRoot and resultsRoot, model/block.ts): NO leaf prefix,
//   nodes 0x01. Its leaves are already hashes (transaction hashes, result hashes), used as they are, and
//   a one-leaf tree's root is that leaf. Without a leaf prefix a leaf cannot be told from an inner node
//   (a second preimage): the root of [a, b, c, d] is also the root of the two-leaf list
//   [H(0x01 ‖ a ‖ b), H(0x01 ‖ c ‖ d)]. Block roots are safe as used, because a header is only ever
//   checked against the block's own transaction list and results (their count and their hashes), never
//   against a list of another length that someone chooses. The rule stays for compatibility: a leaf
//   prefix would change every block hash already stored and already sent between nodes.
// - RFC6962_MERKLE (audit logs anchored on the ledger, e.g. a module's audit manifest): leaves 0x00,
//   nodes 0x01, as RFC 6962 defines them, so that a leaf can never pass for an inner node.
// A new tree (such as an authenticated state tree) should take a domain with a leaf prefix.

import { bytesEqual } from '../util/hex.js';
import { hash } from './hash.js';

export interface MerkleDomain {
  /** The byte hashed in front of each leaf; undefined: a leaf is used as it is (it is a hash already). */
  readonly leafPrefix: number | undefined;
  /** The byte hashed in front of each pair of children. */
  readonly nodePrefix: number;
}

/** The block header's roots: leaves as they are, nodes 0x01 (see the file comment: no leaf prefix). */
export const BLOCK_MERKLE: MerkleDomain = Object.freeze({ leafPrefix: undefined, nodePrefix: 0x01 });
/** RFC 6962 §2.1: leaves 0x00, nodes 0x01. */
export const RFC6962_MERKLE: MerkleDomain = Object.freeze({ leafPrefix: 0x00, nodePrefix: 0x01 });

/** The hash of a leaf in `domain`; without a leaf prefix, the leaf itself (not a copy). */
export function merkleLeaf(domain: MerkleDomain, d: Uint8Array): Uint8Array {
  if (domain.leafPrefix === undefined) return d;
  const b = new Uint8Array(1 + d.length);
  b[0] = domain.leafPrefix;
  b.set(d, 1);
  return hash(b);
}

/** The hash of an inner node in `domain`. */
export function merkleNode(domain: MerkleDomain, left: Uint8Array, right: Uint8Array): Uint8Array {
  const b = new Uint8Array(1 + left.length + right.length);
  b[0] = domain.nodePrefix;
  b.set(left, 1);
  b.set(right, 1 + left.length);
  return hash(b);
}

/**
 * The root over `leaves` (order matters). A pair of the very same node objects as the previous pair of
 * its level gets the previous parent without hashing again: a block's results are mostly the one
 * `Committed` leaf, so its results tree is a few hashes instead of one per transaction. The root is
 * always a fresh array, never one of the leaves.
 */
export function merkleRoot(domain: MerkleDomain, leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return hash(new Uint8Array(0));
  let level: readonly Uint8Array[] =
    domain.leafPrefix === undefined ? leaves : leaves.map((d) => merkleLeaf(domain, d));
  if (level.length === 1) return level[0] === leaves[0] ? level[0]!.slice() : level[0]!;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    let prevA: Uint8Array | undefined;
    let prevB: Uint8Array | undefined;
    let prevParent: Uint8Array | undefined;
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i]!;
      const b = level[i + 1];
      if (b === undefined) next.push(a);
      else if (a === prevA && b === prevB) next.push(prevParent!);
      else {
        prevParent = merkleNode(domain, a, b);
        prevA = a;
        prevB = b;
        next.push(prevParent);
      }
    }
    level = next;
  }
  return level[0]!;
}

/** The largest power of two strictly below n (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtreeRoot(
  domain: MerkleDomain,
  leaves: readonly Uint8Array[],
  from: number,
  to: number,
): Uint8Array {
  if (to - from === 1) return merkleLeaf(domain, leaves[from]!);
  const k = split(to - from);
  return merkleNode(
    domain,
    subtreeRoot(domain, leaves, from, from + k),
    subtreeRoot(domain, leaves, from + k, to),
  );
}

function path(
  domain: MerkleDomain,
  m: number,
  leaves: readonly Uint8Array[],
  from: number,
  to: number,
): Uint8Array[] {
  const n = to - from;
  if (n === 1) return [];
  const k = split(n);
  return m < k
    ? [...path(domain, m, leaves, from, from + k), subtreeRoot(domain, leaves, from + k, to)]
    : [...path(domain, m - k, leaves, from + k, to), subtreeRoot(domain, leaves, from, from + k)];
}

/** PATH(m, D[n]) of RFC 6962 §2.1.1: the audit path of leaf `index`, leaf side first ([] out of range). */
export function merkleProof(
  domain: MerkleDomain,
  index: number,
  leaves: readonly Uint8Array[],
): Uint8Array[] {
  if (!Number.isSafeInteger(index) || index < 0 || index >= leaves.length) return [];
  return path(domain, index, leaves, 0, leaves.length);
}

/** RFC 9162 §2.1.3.2: does `proof` show leaf `d` at `index` of a tree of `size` leaves with `root`? */
export function verifyMerkleProof(
  domain: MerkleDomain,
  d: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = merkleLeaf(domain, d);
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = merkleNode(domain, p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = merkleNode(domain, r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(r, root);
}
