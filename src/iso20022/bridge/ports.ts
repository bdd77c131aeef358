// What the bridge needs from the node (docs/design/architecture.md "Application families": iso20022 reaches
// the core through small interfaces). `src/node/bridge.ts` adapts the concrete pipeline and ledger to this
// port; tests may fake it.

import type { EventEnvelope } from '../../model/events.js';

/** The pipeline's answer to one submission, reduced to what the bridge acts on. */
export type LedgerSubmitOutcome =
  | { readonly kind: 'queued' }
  /** Already queued, in a block being built, or committed: the ledger has it, nothing to do. */
  | { readonly kind: 'duplicate' }
  /** Refused at admission (ledger rejection code, e.g. transaction_expired). */
  | { readonly kind: 'rejected'; readonly code: string; readonly message: string }
  /** The queue (or the bridge account's share of it) is full: retry later. */
  | { readonly kind: 'busy' };

/** Where a transaction stands on the ledger. */
export type LedgerTxStatus =
  | { readonly kind: 'committed'; readonly height: number }
  | {
      readonly kind: 'rejected';
      readonly height: number;
      readonly code: string;
      readonly message: string;
      /** The failing instruction (for a DvP: 0 = securities leg, 1 = cash leg). */
      readonly instructionIndex?: number;
    }
  | { readonly kind: 'expired' }
  | { readonly kind: 'unknown' };

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
