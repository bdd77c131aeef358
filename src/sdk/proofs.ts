// The checks a client runs on a node's proofs (docs/ledger-proofs.md), pure and platform-free: the state
// tree proof verifier (state/merkle/proof.ts), the block roots' audit paths (model/block.ts) and the
// commit certificate rules the node itself applies (consensus/certificate-check.ts), with BLS through the
// platform backend (blst in Node.js, noble in a browser bundle). Each answers false or names the
// problem; none throws on hostile input.

import {
  type CertificateProblem,
  checkCertificate,
  isGenesisCertificate,
} from '../consensus/certificate-check.js';
import { type Validator, ValidatorSet } from '../consensus/validator-set.js';
import { nobleBlsFastAggregateVerify } from '../crypto/bls-noble.js';
import { hash } from '../crypto/hash.js';
import { verifyAggregateSignature } from '../crypto/signer.js';
import {
  type BlockHeader,
  blockHash,
  type CommitCertificate,
  verifyBlockMerklePath,
} from '../model/block.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { decodeStateProof, verifyStateProof } from '../state/merkle/proof.js';
import { bytesEqual } from '../util/hex.js';

export type HeaderProblem =
  | CertificateProblem
  | 'not_a_commit'
  | 'height_mismatch'
  | 'block_hash_mismatch'
  | 'unsigned_genesis_certificate'
  | 'bad_roster';

/** A validator set from a roster, or undefined when the roster is not one (empty, a peer twice, a bad key). */
export function validatorSetOf(validators: readonly Validator[]): ValidatorSet | undefined {
  if (validators.length === 0) return undefined;
  try {
    return new ValidatorSet([...validators]);
  } catch {
    return undefined;
  }
}

/**
 * Does `certificate` certify `header` under the validator set `set` of chain `chainId`? undefined when
 * it does. A genesis certificate (block 1 of a several-validator network, agreed by the genesis file,
 * without signers) certifies nothing on its own and is refused here.
 */
export function verifyCertifiedHeader(
  chainId: string,
  header: BlockHeader,
  certificate: CommitCertificate,
  set: ValidatorSet,
): HeaderProblem | undefined {
  if (certificate.phase.kind !== 'Commit') return 'not_a_commit';
  if (certificate.height !== header.height) return 'height_mismatch';
  if (!bytesEqual(certificate.blockHash, blockHash(header))) return 'block_hash_mismatch';
  if (isGenesisCertificate(certificate, set)) return 'unsigned_genesis_certificate';
  try {
    // The native backend verifies BLS (blst); the browser one does not, so the pure-JavaScript verifier
    // decides there (both answer false for anything invalid).
    return checkCertificate(
      chainId,
      certificate,
      set,
      (m, k, sig) => verifyAggregateSignature(m, k, sig) || nobleBlsFastAggregateVerify(m, k, sig),
    );
  } catch {
    return 'bad_roster';
  }
}

/**
 * Does the encoded state proof `proofBytes` show that under the header's state root `stateRoot` the
 * state key `key` holds `value` (undefined: holds nothing)? A version-1 (multiset) root proves nothing.
 */
export function verifyStateAnswer(
  stateRoot: Uint8Array,
  key: Uint8Array,
  value: Uint8Array | undefined,
  proofBytes: Uint8Array,
): boolean {
  if (stateRoot.length !== 32 || stateRootVersion(stateRoot) !== 2) return false;
  const proof = decodeStateProof(proofBytes);
  return proof !== undefined && verifyStateProof(stateRoot, key, value, proof);
}

/** What `verifyStateBatch` finds wrong with an answer of `POST /v1/proofs/query`; undefined when none. */
export interface BatchProblem {
  /** The first item at fault (the item count when items are missing or extra). */
  index: number;
  reason: 'wrong_count' | 'key_mismatch' | 'state_proof_invalid';
}

/**
 * Checks an answer of `POST /v1/proofs/query` against the state root of a header the caller verified
 * (never the answer's own `state_root`): one item per key asked for, in the order asked, each item's
 * key the one asked, and each value (or absence) proved under `stateRoot`. A version-1 root proves nothing.
 */
export function verifyStateBatch(
  stateRoot: Uint8Array,
  keys: readonly Uint8Array[],
  items: readonly { key: Uint8Array; present: boolean; value?: Uint8Array | undefined; proof: Uint8Array }[],
): BatchProblem | undefined {
  for (let i = 0; i < keys.length; i++) {
    const item = items[i];
    if (item === undefined) return { index: i, reason: 'wrong_count' };
    if (!bytesEqual(item.key, keys[i]!)) return { index: i, reason: 'key_mismatch' };
    const value = item.value;
    if (item.present === (value === undefined) || !verifyStateAnswer(stateRoot, keys[i]!, value, item.proof))
      return { index: i, reason: 'state_proof_invalid' };
  }
  return items.length === keys.length ? undefined : { index: keys.length, reason: 'wrong_count' };
}

export interface EntryProof {
  entryHash: Uint8Array;
  index: number;
  transactionsPath: readonly Uint8Array[];
  /** The result's encoding (TransactionResultCodec): its hash is the results tree's leaf. */
  resultBytes: Uint8Array;
  resultsPath: readonly Uint8Array[];
}

/**
 * Does `p` show the transaction `entryHash` at `p.index` of the block `header` (transactionsRoot) with
 * the result `p.resultBytes` at the same index (resultsRoot)? The leaf count is the header's.
 */
export function verifyEntryProof(header: BlockHeader, entryHash: Uint8Array, p: EntryProof): boolean {
  const n = header.transactionCount;
  if (!bytesEqual(p.entryHash, entryHash)) return false;
  return (
    verifyBlockMerklePath(entryHash, p.index, n, p.transactionsPath, header.transactionsRoot) &&
    verifyBlockMerklePath(hash(p.resultBytes), p.index, n, p.resultsPath, header.resultsRoot)
  );
}
