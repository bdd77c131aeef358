// Turns what the core found into evidence records of the store's codec (consensus/evidence.ts).

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

export function evidenceIdHex(e: Evidence): string {
  return toHex(evidenceId(e));
}
