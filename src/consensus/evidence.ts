// Consensus evidence: signed proof that a validator misbehaved. A
// permissioned network records evidence for its operators; nothing is slashed. Only kinds this node can
// check by itself are accepted:
//   - DoublePrepareVote / DoubleCommitVote: one validator signed two votes of the same phase for the same
//     (height, view, epoch, validator set) but different block hashes. Both BLS signatures must verify with
//     that validator's key over the vote message (certificate.ts `voteMessage`).
//   - InvalidQc: a certificate that really fails `verifyCertificate` against the validator set it names.
//   - InvalidProposal: a proposal this node refused (bad block, wrong leader, bad justification). Proposals
//     are not signed yet, so nobody else can check it: it is recorded locally by the engine, and
//     `verifyEvidence` answers `not_verifiable` for it (so `POST /v1/consensus/evidence/submit` refuses it).
// The reference's "censorship" kind needs a signed proposal format this node does not have yet; it will be
// appended as a new variant (tags are never reused).

import type { Infer } from '../codec/codec.js';
import { enumOf } from '../codec/compound.js';
import { encode } from '../codec/frame.js';
import { fixedBytes, string, varuint } from '../codec/primitives.js';
import { blsVerify } from '../crypto/bls.js';
import { hash } from '../crypto/hash.js';
import { CommitCertificateCodec } from '../model/block.js';
import { assert } from '../util/assert.js';
import { bytesEqual, compareBytes } from '../util/hex.js';
import { CONSENSUS_PROTOCOL, type VoteSubject, VoteSubjectCodec, verifyCertificate } from './certificate.js';
import type { ValidatorSet } from './validator-set.js';

/** Longest `reason` of an InvalidProposal record, in UTF-8 bytes. */
export const INVALID_PROPOSAL_REASON_BYTES_MAX = 64;

const DOUBLE_VOTE = {
  first: VoteSubjectCodec,
  second: VoteSubjectCodec,
  /** Index of the validator in the canonical roster of the set both subjects name. */
  validatorIndex: varuint,
  firstSignature: fixedBytes(96),
  secondSignature: fixedBytes(96),
};

export const EvidenceCodec = enumOf('ConsensusEvidence', {
  DoublePrepareVote: DOUBLE_VOTE,
  DoubleCommitVote: DOUBLE_VOTE,
  InvalidQc: { certificate: CommitCertificateCodec },
  // Appended last: variant tags follow declaration order and are never reused.
  InvalidProposal: {
    height: varuint,
    view: varuint,
    validatorSetHash: fixedBytes(32),
    /** Index of the proposer in the canonical roster of that set. */
    proposerIndex: varuint,
    blockHash: fixedBytes(32),
    /** Why the proposal was refused: a stable code of the engine, at most 64 bytes. */
    reason: string(INVALID_PROPOSAL_REASON_BYTES_MAX),
  },
});
export type Evidence = Infer<typeof EvidenceCodec>;
export type EvidenceKind = Evidence['kind'];
export const EVIDENCE_KINDS: readonly EvidenceKind[] = [
  'DoublePrepareVote',
  'DoubleCommitVote',
  'InvalidQc',
  'InvalidProposal',
];

type DoubleVote = Extract<Evidence, { kind: 'DoublePrepareVote' | 'DoubleCommitVote' }>;

/** What verification needs: the chain the votes are for and every validator set the chain has used. */
export interface EvidenceContext {
  chainId: string;
  validatorSets: readonly ValidatorSet[];
}

/** `finding` names what the evidence proves; `reason` why it proves nothing (stable, for error details). */
export type EvidenceVerdict = { ok: true; finding: string } | { ok: false; reason: string; message: string };

/** Refusal reasons are stable snake_case codes (error details name them). */
const REASON = /^[a-z][a-z_]*$/;
const refuse = (reason: string, message: string): EvidenceVerdict => {
  assert(REASON.test(reason), `evidence refusal reason ${reason} is not a stable code`);
  return { ok: false, reason, message };
};

function setByHash(ctx: EvidenceContext, h: Uint8Array): ValidatorSet | undefined {
  return ctx.validatorSets.find((s) => bytesEqual(s.hash, h));
}

function subjectProblem(e: DoubleVote, s: VoteSubject, ctx: EvidenceContext): EvidenceVerdict | undefined {
  if (s.protocol !== CONSENSUS_PROTOCOL)
    return refuse('wrong_protocol', `protocol is not ${CONSENSUS_PROTOCOL}`);
  if (s.chainId !== ctx.chainId) return refuse('wrong_chain', `votes are not for chain ${ctx.chainId}`);
  const phase = e.kind === 'DoublePrepareVote' ? 'Prepare' : 'Commit';
  if (s.phase.kind !== phase) return refuse('wrong_phase', `${e.kind} needs two ${phase} votes`);
  return undefined;
}

function verifyDoubleVote(e: DoubleVote, ctx: EvidenceContext): EvidenceVerdict {
  const { first: a, second: b } = e;
  const problem = subjectProblem(e, a, ctx) ?? subjectProblem(e, b, ctx);
  if (problem) return problem;
  if (a.height !== b.height || a.view !== b.view || a.epoch !== b.epoch)
    return refuse('not_conflicting', 'the votes are for different heights, views or epochs');
  if (!bytesEqual(a.validatorSetHash, b.validatorSetHash))
    return refuse('not_conflicting', 'the votes name different validator sets');
  if (bytesEqual(a.blockHash, b.blockHash)) return refuse('same_block', 'both votes are for the same block');
  const set = setByHash(ctx, a.validatorSetHash);
  if (set === undefined)
    return refuse('unknown_validator_set', 'the votes name a validator set this chain never had');
  const key = set.blsKeys[e.validatorIndex];
  if (key === undefined)
    return refuse('validator_index', `validator index ${e.validatorIndex} is outside the set`);
  // The signed message is the canonical encoding of the subject itself (certificate.ts voteMessage).
  const signed = (s: VoteSubject, sig: Uint8Array) => blsVerify(key, encode(VoteSubjectCodec, s), sig);
  if (!signed(a, e.firstSignature) || !signed(b, e.secondSignature))
    return refuse('bad_signature', 'a vote signature does not verify with the validator key');
  return { ok: true, finding: 'double_vote' };
}

/** Checks that the evidence proves misbehaviour. Never throws on decoded input. */
export function verifyEvidence(e: Evidence, ctx: EvidenceContext): EvidenceVerdict {
  if (e.kind === 'InvalidProposal')
    return refuse('not_verifiable', 'an invalid proposal is recorded locally: proposals are not signed');
  if (e.kind !== 'InvalidQc') return verifyDoubleVote(e, ctx);
  const set = setByHash(ctx, e.certificate.validatorSetHash);
  if (set === undefined)
    return refuse('unknown_validator_set', 'the certificate names a validator set this chain never had');
  const problem = verifyCertificate(ctx.chainId, e.certificate, set);
  if (problem === undefined)
    return refuse('certificate_valid', 'the certificate verifies: it is not evidence');
  return { ok: true, finding: problem };
}

/**
 * The canonical form of a record: a double vote lists its two votes in byte order of their encodings, so
 * the same offence submitted with the votes swapped is one record (and one id).
 */
export function canonicalEvidence(e: Evidence): Evidence {
  if (e.kind === 'InvalidQc' || e.kind === 'InvalidProposal') return e;
  const a = encode(VoteSubjectCodec, e.first);
  const b = encode(VoteSubjectCodec, e.second);
  if (compareBytes(a, b) <= 0) return e;
  return {
    ...e,
    first: e.second,
    second: e.first,
    firstSignature: e.secondSignature,
    secondSignature: e.firstSignature,
  };
}

/** The id of a record: the ledger hash of its canonical encoding (the deduplication key). */
export function evidenceId(e: Evidence): Uint8Array {
  return hash(encode(EvidenceCodec, canonicalEvidence(e)));
}
