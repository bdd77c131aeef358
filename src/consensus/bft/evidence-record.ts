// Turns what the core found into evidence records of the store's codec (consensus/evidence.ts).

import { assert } from '../../util/assert.js';
import { toHex } from '../../util/hex.js';
import { CONSENSUS_PROTOCOL, type VoteSubject as WireSubject } from '../certificate.js';
import { canonicalEvidence, type Evidence, evidenceId } from '../evidence.js';
import type { ValidatorSet } from '../validator-set.js';
import { certificateSubject } from './bls-vote-crypto.js';
import type { EvidenceFinding, VoteSubject } from './types.js';

function wireSubject(chainId: string, s: VoteSubject): WireSubject {
  return { protocol: CONSENSUS_PROTOCOL, chainId, ...certificateSubject(s) };
}

export function evidenceOf(
  chainId: string,
  f: EvidenceFinding,
  roster: ValidatorSet,
): { evidence: Evidence; finding: string } {
  switch (f.kind) {
    case 'DoubleVote':
      return {
        finding: 'double_vote',
        evidence: canonicalEvidence({
          kind: f.phase === 'Prepare' ? 'DoublePrepareVote' : 'DoubleCommitVote',
          first: wireSubject(chainId, f.first),
          second: wireSubject(chainId, f.second),
          validatorIndex: f.signerIndex,
          firstSignature: f.firstSignature,
          secondSignature: f.secondSignature,
        }),
      };
    case 'InvalidQc':
      return { finding: f.problem, evidence: { kind: 'InvalidQc', certificate: f.qc } };
    case 'InvalidProposal':
      return {
        finding: f.reason.slice(0, 64),
        evidence: {
          kind: 'InvalidProposal',
          height: f.height,
          view: f.view,
          validatorSetHash: roster.hash,
          proposerIndex: Math.max(0, roster.indexOf(f.proposer)),
          blockHash: f.blockHash,
          reason: f.reason.slice(0, 64),
        },
      };
  }
}

/** The height a finding is about: the set of that height names its offender. */
export function findingHeight(f: EvidenceFinding): number {
  switch (f.kind) {
    case 'DoubleVote':
      return f.first.height;
    case 'InvalidQc':
      return f.qc.height;
    case 'InvalidProposal':
      return f.height;
  }
}

/**
 * The validator set of the height `f` is about: the newest `history` entry (sets by the first height
 * they apply to, oldest first) at or below it; `current` when the history does not reach back that far.
 * Never the set in force when the evidence is recorded: after a roster change its indexes name others.
 */
export function rosterOfFinding(
  f: EvidenceFinding,
  history: readonly { height: number; set: ValidatorSet }[],
  current: ValidatorSet,
): ValidatorSet {
  // The history is kept oldest first (driver.ts `noteRoster`, `seedRosterHistory`): the walk back
  // stops at the newest set at or below the height.
  for (let i = 1; i < history.length; i++)
    assert(history[i - 1]!.height <= history[i]!.height, 'validator set history out of height order');
  const height = findingHeight(f);
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.height <= height) return history[i]!.set;
  return current;
}

export function evidenceIdHex(e: Evidence): string {
  return toHex(evidenceId(e));
}
