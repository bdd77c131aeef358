// The consensus engine interface (docs/design/paths.md "A transaction, from bytes to a committed block",
// steps 5 and 6). The pipeline offers a
// `ConsensusHost`; an engine decides *when* and *what* to commit and produces the certificate. The
// single-peer engine and the BFT engine both implement `ConsensusEngine`, so swapping one for the other
// changes nothing in the pipeline.

import type { CommitCertificate } from '../model/block.js';
import type { ConsensusHost } from '../pipeline/consensus-host.js';
import type { ValidatorSet } from './validator-set.js';

export interface QcSummary {
  height: number;
  view: number;
  subjectBlockHash: string;
}

export interface PhaseTimings {
  proposeMs: number;
  collectVotesMs: number;
  commitMs: number;
  totalMs: number;
}

/** What the consensus routes report; every field is measured or derived, never invented. */
export interface ConsensusSnapshot {
  mode: 'single-peer' | 'bft';
  height: number;
  view: number;
  epoch: number;
  leaderIndex: number;
  validatorSet: ValidatorSet;
  validatorSetHistory: { height: number; set: ValidatorSet }[];
  highestQc: QcSummary | undefined;
  lockedQc: QcSummary | undefined;
  lastCertificate: CommitCertificate | undefined;
  recentCertificates: CommitCertificate[];
  viewChanges: number;
  viewChangeCauses: Record<string, number>;
  lastPhases: PhaseTimings | undefined;
  /** Undefined while `phaseSamples` is 0: no round measured, no average. */
  averagePhases: PhaseTimings | undefined;
  /** Rounds whose phases were measured since start (validators only; an observer runs no round). */
  phaseSamples: number;
  /** BFT: fetching blocks from a peer that is ahead (block sync); single peer: always false. */
  catchingUp: boolean;
  roundStartedAtMs: number | undefined;
  blocksProduced: number;
  /** BFT only: what the pacemaker and the collectors of the round in progress are doing. */
  round?: RoundReport;
}

export interface RoundReport {
  pacemaker: {
    /** The view timeout before jitter, its growth, cap, round-trip floor and jitter. */
    timeoutTargetMs: number;
    backoffMultiplier: number;
    maxBackoffMs: number;
    rttMs: number;
    rttFloorMultiplier: number;
    rttFloorMs: number;
    jitterMs: number;
    jitterPermille: number;
  };
  /** Roster indexes collecting the votes of (height, view). */
  collectors: number[];
  collectorsK: number;
  /** Votes this peer received as a collector and QCs it formed, since start. */
  votesReceived: number;
  qcsFormed: number;
  /** Commit votes seen for the current view's Prepare QC block. */
  commitVotes: number;
  /** This peer's roster index, -1 for an observer. */
  selfIndex: number;
  proposals: number;
  votesSent: number;
  rejectedMessages: number;
  /** Peer messages dropped (or a NEW_VIEW claim capped) for a view or height beyond the windows. */
  farMessages: number;
}

export interface ConsensusEngine {
  readonly mode: 'single-peer' | 'bft';
  start(): void;
  /** Stops producing; resolves once any block in flight is committed. */
  stop(): Promise<void>;
  /** The queue went from empty to non-empty (or grew): consider producing a block. */
  notifyWork(): void;
  snapshot(): ConsensusSnapshot;
  /** Resolves when the chain reaches `height` (tests, SDK waits). */
  waitForHeight(height: number): Promise<void>;
}

export type { ConsensusHost };
