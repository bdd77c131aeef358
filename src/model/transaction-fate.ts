// What became of a transaction a node-local service (a module's, modules/descriptor.ts `NodeTransactions`)
// handed to the node: its admission, then where it stands on the ledger. Reduced from the pipeline's own
// answers (node/module-transactions.ts) to what such a service acts on.

/** The pipeline's answer to one transaction a node-local service submits, reduced to what it acts on. */
export type TransactionAdmission =
  | { readonly kind: 'queued' }
  /** Already queued, in a block being built, or committed: the ledger has it, nothing to do. */
  | { readonly kind: 'duplicate' }
  /** Refused at admission (ledger rejection code, e.g. transaction_expired). */
  | { readonly kind: 'rejected'; readonly code: string; readonly message: string }
  /** The queue (or the signing account's share of it) is full: retry later. */
  | { readonly kind: 'busy' };

/** Where a transaction stands on the ledger. */
export type TransactionFate =
  | { readonly kind: 'committed'; readonly height: number }
  | {
      readonly kind: 'rejected';
      readonly height: number;
      readonly code: string;
      readonly message: string;
      /** The failing instruction's index in the transaction. */
      readonly instructionIndex?: number;
    }
  | { readonly kind: 'expired' }
  | { readonly kind: 'unknown' };
