// Checking a commit certificate against a validator set, with no native code: the node (certificate.ts,
// through blst) and the SDK's light client (sdk/proofs.ts, through the platform crypto backend: blst in
// Node.js, noble in a browser) run these same rules. The vote message is the domain-separated subject
// every validator signs; the certificate's bitmap says who signed; one aggregate check against the
// signers' keys decides.

import type { Infer } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { string, varuint } from '../codec/primitives.js';
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
  // A vote names one block of one validator set: both 32-byte hashes.
  assert(c.blockHash.length === 32 && c.validatorSetHash.length === 32, 'vote subject: hash sizes');
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

/** One aggregate signature by every key over one message: false, never a throw, on bad input. */
export type AggregateVerify = (message: Uint8Array, keys: Uint8Array[], signature: Uint8Array) => boolean;

export type CertificateProblem = 'wrong_validator_set' | 'bad_bitmap' | 'no_quorum' | 'bad_signature';

/** What a certificate's signature must satisfy: one aggregate signature by `keys` over `message`. */
export interface CertificateVote {
  message: Uint8Array;
  keys: Uint8Array[];
  signature: Uint8Array;
}

/**
 * Every check of `checkCertificate` but the signature's: the problem, or the aggregate check left to do
 * (a verifier may batch those of many certificates; `bad_signature` when one fails). Never throws on bad
 * input.
 */
export function certificateVote(
  chainId: string,
  c: CommitCertificate,
  set: ValidatorSet,
): CertificateProblem | CertificateVote {
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
  return { message: voteMessage(chainId, c), keys, signature: c.signature };
}

/** Checks a certificate against a validator set; undefined when valid. Never throws on bad input. */
export function checkCertificate(
  chainId: string,
  c: CommitCertificate,
  set: ValidatorSet,
  aggregateVerify: AggregateVerify,
): CertificateProblem | undefined {
  const vote = certificateVote(chainId, c, set);
  if (typeof vote === 'string') return vote;
  return aggregateVerify(vote.message, vote.keys, vote.signature) ? undefined : 'bad_signature';
}

/** The compressed G2 point at infinity: the aggregate of no signatures. */
export const EMPTY_AGGREGATE = (() => {
  const b = new Uint8Array(96);
  b[0] = 0xc0;
  return b;
})();

export function isGenesisCertificate(c: CommitCertificate, set: ValidatorSet): boolean {
  assert(set.hash.length === 32, `a validator set hash of ${set.hash.length} bytes`);
  return (
    c.height === 1 &&
    c.phase.kind === 'Commit' &&
    bytesEqual(c.validatorSetHash, set.hash) &&
    c.signers.every((b) => b === 0) &&
    bytesEqual(c.signature, EMPTY_AGGREGATE)
  );
}
