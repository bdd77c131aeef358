// The admission policy a node enforces, as GET /v1/policy answers it: read from the very objects admission
// and the queue use (the pipeline's admission limits, which are the node's configured bounds lowered by
// the chain's parameters; the queue's limits; the chain's weight caps and the block builder's shares of
// them, docs/cost-model.md), never from a copy of the configuration. No fee section: the chain has no fees.

import { accountShare, transactionsShare } from '../model/weights.js';
import type { AdmissionLimits } from '../pipeline/admission.js';
import type { QueueLimits } from '../pipeline/queue.js';

export interface PolicySources {
  admission: AdmissionLimits;
  queue: QueueLimits;
  blockMaxTransactions: number;
  blockMaxWeight: number;
}

export interface PolicyView {
  transaction: {
    bytes_max: number;
    instructions_max: number;
    metadata_bytes_max: number;
    max_clock_drift_ms: number;
    allowed_algorithms: string[];
    signatures: number;
    weight_max: number | null;
  };
  ttl: { refuses_expired: true; queue_expiry_ms: number };
  queue: {
    capacity: number;
    per_account_max: number;
    per_key_max: number | null;
    per_source_max: number | null;
  };
  block: {
    max_transactions: number;
    max_weight: number;
    transactions_weight: number;
    account_weight: number;
  };
  codec: { bytes_max: number; items_max: number; depth_max: number };
}

export function policyView(s: PolicySources): PolicyView {
  const a = s.admission;
  const weightMax = a.transactionWeightMax ?? null;
  return {
    transaction: {
      bytes_max: a.transactionBytesMax,
      instructions_max: a.instructionsMax,
      metadata_bytes_max: a.metadataBytesMax,
      max_clock_drift_ms: a.maxClockDriftMs,
      allowed_algorithms: [...a.allowedAlgorithms].sort(),
      // A signed transaction carries exactly one signature, by its authority's key (model/transaction.ts).
      signatures: 1,
      weight_max: weightMax,
    },
    ttl: { refuses_expired: true, queue_expiry_ms: s.queue.expiryMs },
    queue: {
      capacity: s.queue.capacity,
      per_account_max: s.queue.perAccountMax,
      per_key_max: s.queue.perKeyMax ?? null,
      per_source_max: s.queue.perSourceMax ?? null,
    },
    block: {
      max_transactions: s.blockMaxTransactions,
      max_weight: s.blockMaxWeight,
      transactions_weight: transactionsShare(s.blockMaxWeight),
      account_weight: accountShare(s.blockMaxWeight, weightMax ?? 0),
    },
    codec: { bytes_max: a.decode.bytesMax, items_max: a.decode.itemsMax, depth_max: a.decode.depthMax },
  };
}
