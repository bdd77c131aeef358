// The consensus engine interface (architecture.md "The path of a transaction" step 3). The pipeline offers a
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
  averagePhases: PhaseTimings | undefined;
  roundStartedAtMs: number | undefined;
  blocksProduced: number;
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
