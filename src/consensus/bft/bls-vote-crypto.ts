// Votes and QCs over BLS12-381 (design "Signatures and certificates"): the node's VoteCrypto. A QC is
// verified once (one aggregate check) and remembered by its encoding's hash, so a QC that arrives from
// several collectors and in every NEW_VIEW costs one pairing check.

import { encode } from '../../codec/frame.js';
import { type BlsKeyPair, blsVerify } from '../../crypto/bls.js';
import { hash } from '../../crypto/hash.js';
import { CommitCertificateCodec } from '../../model/block.js';
import { assert } from '../../util/assert.js';
import { toHex } from '../../util/hex.js';
import { aggregateCertificate, verifyCertificate, voteMessage } from '../certificate.js';
import type { ValidatorSet } from '../validator-set.js';
import type { Qc, VoteCrypto, VoteSubject } from './types.js';

const VERIFIED_QCS_MAX = 1024;

/** A vote subject in the certificate's shape (epoch 0: no proof-of-stake epochs). */
export function certificateSubject(s: VoteSubject) {
  return {
    phase: { kind: s.phase },
    height: s.height,
    view: s.view,
    epoch: 0,
    blockHash: s.blockHash,
    validatorSetHash: s.validatorSetHash,
  } as const;
}

export class BlsVoteCrypto implements VoteCrypto {
  private readonly verified = new Set<string>();

  constructor(
    private readonly chainId: string,
    private readonly key: BlsKeyPair | undefined,
  ) {}

  sign(subject: VoteSubject): Uint8Array {
    // The core votes only as a roster member (roster index >= 0), which has a consensus key.
    assert(this.key !== undefined, 'an observer has no consensus key to vote with');
    return this.key.sign(voteMessage(this.chainId, certificateSubject(subject)));
  }

  verifyVote(
    subject: VoteSubject,
    signerIndex: number,
    roster: ValidatorSet,
    signature: Uint8Array,
  ): boolean {
    const key = roster.blsKeys[signerIndex];
    if (key === undefined) return false;
    return blsVerify(key, voteMessage(this.chainId, certificateSubject(subject)), signature);
  }

  aggregate(
    subject: VoteSubject,
    votes: { index: number; signature: Uint8Array }[],
    roster: ValidatorSet,
  ): Qc {
    return aggregateCertificate(certificateSubject(subject), votes, roster);
  }

  verifyQc(qc: Qc, roster: ValidatorSet) {
    const id = toHex(hash(encode(CommitCertificateCodec, qc)));
    if (this.verified.has(id)) return undefined;
    const problem = verifyCertificate(this.chainId, qc, roster);
    if (problem === undefined) {
      if (this.verified.size >= VERIFIED_QCS_MAX) this.verified.clear();
      this.verified.add(id);
      assert(this.verified.size <= VERIFIED_QCS_MAX, 'verified-QC cache over its bound');
    }
    return problem;
  }
}
