// Merkle tree hashing and inclusion proofs over audit entry hashes, as RFC 6962 §2.1 (and RFC 9162
// §2.1.3 for proof verification) define them, with H = the ledger hash (src/crypto/hash.ts):
//   leaf  = H(0x00 ‖ d)           node = H(0x01 ‖ left ‖ right)
//   MTH(D[n]) splits at k, the largest power of two below n. MTH of no leaves = H(empty).
// The domain-separation bytes keep a leaf from ever passing for an inner node. The tree itself is the
// ledger's one Merkle helper (crypto/merkle.ts) in its RFC6962_MERKLE domain.

import {
  merkleProof as domainProof,
  merkleRoot as domainRoot,
  RFC6962_MERKLE,
  verifyMerkleProof as verifyDomainProof,
} from '../../../crypto/merkle.js';

/** MTH(D[n]) of RFC 6962 §2.1. */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return domainRoot(RFC6962_MERKLE, leaves);
}

/** PATH(m, D[n]) of RFC 6962 §2.1.1: the audit path of leaf `index`, leaf side first. */
export function merkleProof(index: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  return domainProof(RFC6962_MERKLE, index, leaves);
}

/** RFC 9162 §2.1.3.2: does `proof` show leaf `d` at `index` of a tree of `size` leaves with `root`? */
export function verifyMerkleProof(
  d: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  return verifyDomainProof(RFC6962_MERKLE, d, index, size, proof, root);
}
