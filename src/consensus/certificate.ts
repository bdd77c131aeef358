// Votes and commit certificates. A vote signs a domain-separated subject: chain id,
// protocol version, phase, height, view, epoch, block hash and validator-set hash. There is no signer
// index in the message, so votes on one block aggregate into one BLS signature; the certificate's bitmap
// says who signed. Verifying it is one aggregate check against the signers' keys.

import type { Infer } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { string, varuint } from '../codec/primitives.js';
import { blsAggregateSignatures, blsFastAggregateVerify } from '../crypto/bls.js';
import { CertificatePhaseCodec, type CommitCertificate } from '../model/block.js';
import { HashBytes } from '../model/keys.js';
import { assert } from '../util/assert.js';
import { bytesEqual } from '../util/hex.js';
import type { ValidatorSet } from './validator-set.js';

export const CONSENSUS_PROTOCOL = 'torana/consensus/1';

export const VoteSubjectCodec = struct('VoteSubject', {
  protocol: string(64),
  chainId: string(64),
  phase: CertificatePhaseCodec,
  height: varuint,
  view: varuint,
  epoch: varuint,
  blockHash: HashBytes,
  validatorSetHash: HashBytes,
});
export type VoteSubject = Infer<typeof VoteSubjectCodec>;

export function voteMessage(
  chainId: string,
  c: Omit<CommitCertificate, 'signers' | 'signature'>,
): Uint8Array {
  return encode(VoteSubjectCodec, {
    protocol: CONSENSUS_PROTOCOL,
    chainId,
    phase: c.phase,
    height: c.height,
    view: c.view,
    epoch: c.epoch,
    blockHash: c.blockHash,
    validatorSetHash: c.validatorSetHash,
  });
}

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

export function signerIndexes(bitmap: Uint8Array, size: number): number[] | undefined {
  // The size is our roster's (the bitmap is the peer's, and is checked against it).
  assert(Number.isSafeInteger(size) && size >= 1, `signer bitmap over a roster of ${size}`);
  if (bitmap.length !== Math.ceil(size / 8)) return undefined;
  const out: number[] = [];
  for (let i = 0; i < bitmap.length * 8; i++) {
    if ((bitmap[i >> 3]! >> (i & 7)) & 1) {
      if (i >= size) return undefined; // bits beyond the roster
      out.push(i);
    }
  }
  return out;
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

export type CertificateProblem = 'wrong_validator_set' | 'bad_bitmap' | 'no_quorum' | 'bad_signature';

/** Checks a certificate against a validator set; undefined when valid. Never throws on bad input. */
export function verifyCertificate(
  chainId: string,
  c: CommitCertificate,
  set: ValidatorSet,
): CertificateProblem | undefined {
  // Our validator set: one BLS key per validator and a quorum among them.
  assert(
    set.blsKeys.length === set.size && set.quorum >= 1 && set.quorum <= set.size,
    `a validator set of ${set.size} with ${set.blsKeys.length} keys and a quorum of ${set.quorum}`,
  );
  if (!bytesEqual(c.validatorSetHash, set.hash)) return 'wrong_validator_set';
  const signers = signerIndexes(c.signers, set.size);
  if (signers === undefined) return 'bad_bitmap';
  if (signers.length < set.quorum) return 'no_quorum';
  const keys = signers.map((i) => set.blsKeys[i]!);
  return blsFastAggregateVerify(voteMessage(chainId, c), keys, c.signature) ? undefined : 'bad_signature';
}

/** The compressed G2 point at infinity: the aggregate of no signatures. */
const EMPTY_AGGREGATE = (() => {
  const b = new Uint8Array(96);
  b[0] = 0xc0;
  return b;
})();

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

export function isGenesisCertificate(c: CommitCertificate, set: ValidatorSet): boolean {
  return (
    c.height === 1 &&
    c.phase.kind === 'Commit' &&
    bytesEqual(c.validatorSetHash, set.hash) &&
    c.signers.every((b) => b === 0) &&
    bytesEqual(c.signature, EMPTY_AGGREGATE)
  );
}
