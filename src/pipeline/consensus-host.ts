// What the pipeline offers a consensus engine (docs/design/paths.md). The
// pipeline owns this port and the engine uses it, so dependencies point one way: consensus → pipeline.
// The single-peer engine and the BFT engine drive the same host, so swapping engines changes nothing here.
// The port speaks of blocks: a leader builds one from its queue (`takeTransactions` + `execute`), any
// peer re-executes a proposed one (`executeProposed`), commits a certified one (`commit`), or appends
// one learnt by block sync (`appendSynced`).

import type { Block, CommitCertificate } from '../model/block.js';
import type { Clock } from '../util/clock.js';
import type { ExecutedBlock } from './executed-block.js';
import type { QueuedTransaction } from './queue.js';

/** Why a proposed block was refused (stable codes; see proposal-check.ts for the order of the checks). */
export type ProposalRefusal =
  | 'proposal_undecodable'
  | 'proposal_height'
  | 'proposal_prev_hash'
  | 'proposal_transaction_count'
  | 'proposal_too_many_transactions'
  | 'proposal_weight_exceeded'
  | 'proposal_duplicate_transaction'
  | 'proposal_already_committed'
  | 'proposal_foreign_transaction'
  | 'proposal_expired_transaction'
  | 'proposal_transactions_root'
  | 'proposal_time_regressed'
  | 'proposal_bad_signature'
  | 'proposal_results_root'
  | 'proposal_state_root'
  | 'proposal_header_mismatch';

export type ProposalVerdict =
  | { ok: true; executed: ExecutedBlock }
  | { ok: false; reason: ProposalRefusal; detail: string };

/**
 * The port. `Roster` is the consensus layer's validator-set type (consensus/validator-set.ts); the
 * pipeline only hands back what the injected `validatorSetOf` computes from the committed state.
 */
export interface ConsensusHost<Roster = unknown> {
  readonly chainId: string;
  readonly clock: Clock;
  height(): number;
  tipHash(): Uint8Array;
  blockMaxTransactions(): number;
  /** Removes up to `max` transactions from the queue (expired ones are dropped and announced). */
  takeTransactions(max: number): QueuedTransaction[];
  queueDepth(): number;
  /**
   * The block time at which the earliest timed due work of the committed state falls due
   * (state/module-host.ts), undefined when none is scheduled: a leader with an empty queue proposes an
   * empty block then. Work due by height runs only in blocks made for other reasons (no heartbeat blocks).
   */
  dueWorkAtMs(): number | undefined;
  /** The newest committed block's creation time (consensus/due-wake.ts keeps wakes a block time apart). */
  lastBlockTimeMs?(): number | undefined;
  /** The chain parameter BlockTimeMs. */
  blockTimeMs?(): number;
  /** Executes a proposal (the leader's own) on a scratch view of the committed state. */
  execute(view: number, creationTimeMs: number, txs: QueuedTransaction[]): ExecutedBlock;
  /**
   * Re-executes a block proposed by any peer (`bytes`: ProposedBlockCodec, header + transactions).
   * Checks height and prevHash against the tip, the header's roots and state root against its own
   * execution, and verifies only the transaction signatures admission has not verified already.
   */
  executeProposed(bytes: Uint8Array): Promise<ProposalVerdict>;
  /**
   * Makes a certified block durable, then visible, then announces it; removes every transaction it
   * includes from the local queue, whoever proposed it.
   */
  commit(executed: ExecutedBlock, certificate: CommitCertificate): Promise<void>;
  /**
   * Block sync: executes a committed block whose certificate the caller verified, checks that it
   * reproduces the block's header, and commits it. Throws HostError (proposal-check.ts) when not.
   */
  appendSynced(block: Block): Promise<void>;
  /** The encoded committed block (with its certificate) at `height`, for serving sync; undefined above the tip. */
  blockBytes(height: number): Promise<Uint8Array | undefined>;
  /** Puts own taken transactions back at the queue front (a proposal that lost its view). */
  release(txs: QueuedTransaction[]): void;
  /** Transactions that could not be committed (engine stopping): back to their submitters as failures. */
  abandon(txs: QueuedTransaction[], reason: string): void;
  /** The validator set for height()+1, from the committed state. */
  validatorSet(): Roster;
}

/** What the pipeline needs from whichever engine drives it: a nudge when work arrives. */
export interface WorkListener {
  notifyWork(): void;
}
