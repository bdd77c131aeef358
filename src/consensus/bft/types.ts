// The BFT protocol core's vocabulary (design: docs/consensus.md). The core is a pure state machine:
// `step(input) → effects`. It never reads a clock, a random source or a socket: time arrives in inputs
// (`nowMs`, timer expiries), randomness does not exist, and every message leaves as an effect. The node's
// driver (driver.ts) and the simulator (src/sim/) execute the same effects against different ports.

import type { CommitCertificate } from '../../model/block.js';
import { AssertionError, assert } from '../../util/assert.js';
import type { CertificateProblem } from '../certificate.js';
import type { ValidatorSet } from '../validator-set.js';

/** A quorum certificate: the commit-certificate shape, any phase. */
export type Qc = CommitCertificate;
export type VotePhase = 'Prepare' | 'Commit';

/** What a vote signs, before the signer's key is applied (certificate.ts `voteMessage`). */
export interface VoteSubject {
  phase: VotePhase;
  height: number;
  view: number;
  blockHash: Uint8Array;
  validatorSetHash: Uint8Array;
}

/** Signing and checking votes and QCs: BLS12-381 in the node, a cheap keyed hash in the simulator. */
export interface VoteCrypto {
  /** Signs with this peer's consensus key; undefined for an observer (no key in the roster). */
  sign(subject: VoteSubject): Uint8Array;
  verifyVote(subject: VoteSubject, signerIndex: number, roster: ValidatorSet, signature: Uint8Array): boolean;
  aggregate(
    subject: VoteSubject,
    votes: { index: number; signature: Uint8Array }[],
    roster: ValidatorSet,
  ): Qc;
  verifyQc(qc: Qc, roster: ValidatorSet): CertificateProblem | undefined;
}

/** Wire messages of the protocol (messages.ts encodes them). Senders are known from the connection. */
export type BftMessage =
  | { kind: 'Proposal'; height: number; view: number; blockHash: Uint8Array; block: Uint8Array; justify?: Qc }
  | {
      kind: 'Vote';
      phase: VotePhase;
      height: number;
      view: number;
      blockHash: Uint8Array;
      signature: Uint8Array;
    }
  | { kind: 'QcMsg'; qc: Qc }
  | { kind: 'NewView'; height: number; view: number; highQc?: Qc; highBlock?: Uint8Array }
  | { kind: 'PayloadRequest'; height: number; blockHash: Uint8Array }
  | { kind: 'Payload'; height: number; blockHash: Uint8Array; block: Uint8Array };

/** What must survive a crash before any vote leaves (driver: temp file + fsync + rename). */
export interface SafetyState {
  height: number;
  view: number;
  lockedQc?: Qc;
  /** Highest view with a Prepare / Commit vote at `height`, and what it was for. */
  prepareVote?: { view: number; blockHash: Uint8Array };
  commitVote?: { view: number; blockHash: Uint8Array };
  /** Highest view at `height` this peer proposed in (as leader): it never proposes there again. */
  proposedView?: number;
  /**
   * The payloads this peer proposed or voted Prepare for at `height`. A Prepare QC thus implies 2f+1
   * peers holding its block durably, so the block of the highest QC can always be fetched and
   * re-proposed, even after every peer crashed (liveness; found by the simulator, seed 1007504).
   */
  blocks?: { blockHash: Uint8Array; block: Uint8Array }[];
}

export interface PacemakerOptions {
  baseMs: number;
  multiplierPermille: number;
  maxMs: number;
  /** Measured round trip × `rttFloorMultiplier` is the least timeout (0 until measured). */
  rttFloorMultiplier: number;
  /**
   * The last decided round's duration (its view's start → its commit certificate, as this peer saw it)
   * × `roundFloorMultiplier` is the least timeout, capped at `maxMs` (0 disables it).
   */
  roundFloorMultiplier: number;
  /**
   * A view timer expiring while the view's proposal (received in its view) is still being checked here is
   * armed again, up to `maxMs` from the view's start (progress-extended views).
   */
  extendWhileChecking: boolean;
  jitterPermille: number;
}

export const DEFAULT_PACEMAKER: PacemakerOptions = {
  baseMs: 2000,
  multiplierPermille: 1500,
  maxMs: 30_000,
  rttFloorMultiplier: 4,
  roundFloorMultiplier: 3,
  extendWhileChecking: true,
  jitterPermille: 100,
};

/** Bugs the simulator's planted-bug tests switch on to prove the checkers catch them. Never set in the node. */
export type PlantedBug = 'prepare-ignores-lock' | 'forget-lock-on-restart' | 'stale-justify-unlock';

export interface BftOptions {
  chainId: string;
  /** This peer's id (`ed0120…`); a peer not in the roster follows as an observer. */
  self: string;
  crypto: VoteCrypto;
  pacemaker: PacemakerOptions;
  /** Vote collectors per (height, view), the leader included (config `consensus.collectors_k`). */
  collectorsK: number;
  plantedBug?: PlantedBug;
}

export type ViewChangeCause =
  | 'no_proposal'
  | 'validation_reject'
  | 'quorum_timeout'
  | 'commit_failure'
  | 'missing_payload'
  | 'joined';

export type BftInput =
  | {
      kind: 'Start';
      height: number;
      roster: ValidatorSet;
      safety?: SafetyState;
      nowMs: number;
      pending: boolean;
    }
  | { kind: 'Message'; from: string; msg: BftMessage; nowMs: number }
  | { kind: 'Timeout'; height: number; view: number; nowMs: number }
  | { kind: 'Work'; pending: boolean; nowMs: number }
  | { kind: 'Built'; height: number; view: number; blockHash?: Uint8Array; block?: Uint8Array; nowMs: number }
  | {
      kind: 'Executed';
      height: number;
      blockHash: Uint8Array;
      /** The header's own view (a re-proposed block keeps the view it was built in). */
      headerView: number;
      ok: boolean;
      reason?: string;
      nowMs: number;
    }
  /** The host committed `height` (own commit or block sync); `roster` is the set for height + 1. */
  | { kind: 'Committed'; height: number; roster: ValidatorSet; pending: boolean; nowMs: number }
  | { kind: 'Rtt'; ms: number };

export type EvidenceFinding =
  | {
      kind: 'DoubleVote';
      phase: VotePhase;
      signerIndex: number;
      first: VoteSubject;
      firstSignature: Uint8Array;
      second: VoteSubject;
      secondSignature: Uint8Array;
    }
  | { kind: 'InvalidQc'; qc: Qc; problem: CertificateProblem; from: string }
  | {
      kind: 'InvalidProposal';
      height: number;
      view: number;
      proposer: string;
      blockHash: Uint8Array;
      reason: string;
    };

export type BftEffect =
  | { kind: 'Send'; to: string; msg: BftMessage }
  | { kind: 'Broadcast'; msg: BftMessage }
  | { kind: 'SetTimer'; height: number; view: number; ms: number }
  | { kind: 'CancelTimer' }
  | { kind: 'Build'; height: number; view: number }
  | { kind: 'Execute'; height: number; view: number; blockHash: Uint8Array; block: Uint8Array }
  /** Must be durable before the effects after it run (votes follow it). */
  | { kind: 'Persist'; safety: SafetyState }
  | { kind: 'Commit'; height: number; blockHash: Uint8Array; certificate: Qc }
  /** A peer is at least this far ahead: fetch committed blocks from it (block sync). */
  | { kind: 'Behind'; peer: string; height: number }
  | { kind: 'Evidence'; finding: EvidenceFinding };

/**
 * A failed always-on assertion of the protocol core (the project's AssertionError): a bug, reported with
 * what was being done. The engine stops on it before the effects of the failed step run.
 */
export class ConsensusInvariantError extends AssertionError {
  override readonly name: string = 'ConsensusInvariantError';
}

/** `assert` (util/assert.ts) throwing ConsensusInvariantError: the consensus core's name for it. */
export function invariant(ok: boolean, what: string): asserts ok {
  assert(ok, what, ConsensusInvariantError);
}
