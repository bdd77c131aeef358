// What the bridge needs from the node (docs/design/architecture.md "Application families": iso20022 reaches
// the core through small interfaces). start.ts adapts the node's transaction path (the module route env's
// `transactions`), event feed and state to this port; tests may fake it.

import type { EventEnvelope } from '../../../model/events.js';
import type { TransactionAdmission, TransactionFate } from '../../../model/transaction-fate.js';

/** The pipeline's answer to one submission, reduced to what the bridge acts on. */
export type LedgerSubmitOutcome = TransactionAdmission;

/** Where a transaction stands on the ledger (for a DvP, instruction 0 = securities leg, 1 = cash leg). */
export type LedgerTxStatus = TransactionFate;

export interface BridgeLedgerPort {
  readonly chainId: string;
  nowMs(): number;
  /** Submits a framed signed transaction (`application/x-codec` bytes). */
  submit(framedTx: Uint8Array): Promise<LedgerSubmitOutcome>;
  /**
   * Submits several framed signed transactions at once (batched admission), in order; one outcome per
   * transaction, in the same order. Each keeps every admission check; a refused one affects no other.
   */
  submitMany(framedTxs: readonly Uint8Array[]): Promise<LedgerSubmitOutcome[]>;
  status(hash: Uint8Array): Promise<LedgerTxStatus>;
  /** Pipeline events (transaction statuses, blocks), delivered synchronously in id order. */
  subscribe(listener: (e: EventEnvelope) => void): () => void;
  /** The scale of an asset definition, or undefined when it does not exist. */
  assetScale(definitionId: string): number | undefined;
  /** Creation time of a committed block (its header), or undefined. */
  blockTimeMs(height: number): number | undefined;
}
