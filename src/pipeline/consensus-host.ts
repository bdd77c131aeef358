// What the pipeline offers a consensus engine (architecture.md "The path of a transaction" step 3). The
// pipeline owns this port and the engine uses it, so dependencies point one way: consensus → pipeline.
// The single-peer engine and the BFT engine drive the same host, so swapping engines changes nothing here.

import type { CommitCertificate } from '../model/block.js';
import type { Clock } from '../util/clock.js';
import type { ExecutedBlock } from './executed-block.js';
import type { QueuedTransaction } from './queue.js';

export interface ConsensusHost {
  readonly chainId: string;
  readonly clock: Clock;
  height(): number;
  tipHash(): Uint8Array;
  blockMaxTransactions(): number;
  /** Removes up to `max` transactions from the queue (expired ones are dropped and announced). */
  takeTransactions(max: number): QueuedTransaction[];
  queueDepth(): number;
  /** Executes a proposal on a scratch view of the committed state. */
  execute(view: number, creationTimeMs: number, txs: QueuedTransaction[]): ExecutedBlock;
  /** Makes a certified block durable, then visible, then announces it. */
  commit(executed: ExecutedBlock, certificate: CommitCertificate): Promise<void>;
  /** Transactions that could not be committed (engine stopping): back to their submitters as failures. */
  abandon(txs: QueuedTransaction[], reason: string): void;
}

/** What the pipeline needs from whichever engine drives it: a nudge when work arrives. */
export interface WorkListener {
  notifyWork(): void;
}
