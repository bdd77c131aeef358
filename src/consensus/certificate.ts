// Votes and commit certificates. A vote signs a domain-separated subject: chain id,
// protocol version, phase, height, view, epoch, block hash and validator-set hash. There is no signer
// index in the message, so votes on one block aggregate into one BLS signature; the certificate's bitmap
// says who signed. Verifying it is one aggregate check against the signers' keys.

import { blsAggregateSignatures, blsFastAggregateVerify } from '../crypto/bls.js';
import type { CommitCertificate } from '../model/block.js';
import { assert } from '../util/assert.js';
import { bytesEqual } from '../util/hex.js';
import { type CertificateProblem, checkCertificate, EMPTY_AGGREGATE } from './certificate-check.js';
import type { ValidatorSet } from './validator-set.js';

export {
  type AggregateVerify,
  type CertificateProblem,
  type CertificateVote,
  CONSENSUS_PROTOCOL,
  certificateVote,
  checkCertificate,
  isGenesisCertificate,
  signerIndexes,
  type VoteSubject,
  VoteSubjectCodec,
  voteMessage,
} from './certificate-check.js';

export function signersBitmap(indexes: number[], size: number): Uint8Array {
  const bm = new Uint8Array(Math.ceil(size / 8));
  for (const i of indexes) {
    // Our own signers: each a roster slot, each once (a bit set twice would count one vote as two).
    assert(Number.isSafeInteger(i) && i >= 0 && i < size, `signer index ${i} outside a roster of ${size}`);
    assert(((bm[i >> 3]! >> (i & 7)) & 1) === 0, `signer index ${i} given twice`);
    bm[i >> 3]! |= 1 << (i & 7);
  }
  return bm;
}

export function aggregateCertificate(
  subject: Omit<CommitCertificate, 'signers' | 'signature'>,
  votes: { index: number; signature: Uint8Array }[],
  set: ValidatorSet,
): CommitCertificate {
  assert(votes.length >= 1 && votes.length <= set.size, `aggregating ${votes.length} votes of ${set.size}`);
  assert(bytesEqual(subject.validatorSetHash, set.hash), 'aggregating votes for another validator set');
  const sorted = [...votes].sort((a, b) => a.index - b.index);
  return {
    ...subject,
    signers: signersBitmap(
      sorted.map((v) => v.index),
      set.size,
    ),
    signature: blsAggregateSignatures(sorted.map((v) => v.signature)),
  };
}

/** Checks a certificate against a validator set (blst); undefined when valid. Never throws on bad input. */
export function verifyCertificate(
  chainId: string,
  c: CommitCertificate,
  set: ValidatorSet,
): CertificateProblem | undefined {
  return checkCertificate(chainId, c, set, blsFastAggregateVerify);
}

/**
 * Block 1 of a network with several validators: the genesis block is agreed by the genesis file every
 * peer holds (each peer executes it and gets the same hash), not by votes, so its certificate has no
 * signers. Accepted only at height 1 (`isGenesisCertificate`); never reported as a quorum.
 */
export function genesisCertificate(blockHash: Uint8Array, set: ValidatorSet): CommitCertificate {
  assert(blockHash.length === 32 && set.size >= 1, 'a genesis certificate needs a block hash and validators');
  return {
    phase: { kind: 'Commit' },
    height: 1,
    view: 0,
    epoch: 0,
    blockHash,
    validatorSetHash: set.hash,
    signers: new Uint8Array(Math.ceil(set.size / 8)),
    signature: EMPTY_AGGREGATE.slice(),
  };
}
