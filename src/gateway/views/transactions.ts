// Answer types of the transaction routes.

import { option, seq, struct } from '../../codec/compound.js';
import { string, varuint } from '../../codec/primitives.js';
import { Hash } from '../../model/keys.js';
import { RejectionCodec } from '../../model/rejections.js';
import { ErrorBodyView, QueueStateView } from './common.js';

export const TransactionStatusView = struct('TransactionStatusView', {
  hash: Hash,
  /** Queued, Committed, Rejected, Expired or Dropped. */
  status: string(16),
  blockHeight: option(varuint),
  reason: option(RejectionCodec),
  message: option(string(256)),
});

/** One item of a batch answer: `Queued` with its hash, or `Refused` with the error POST /transaction would give. */
export const TransactionBatchItemView = struct('TransactionBatchItem', {
  /** Absent only when the item could not be hashed (too large). */
  txHash: option(Hash),
  /** Queued or Refused. */
  status: string(16),
  error: option(ErrorBodyView),
});

/** The answer to a batch (POST /v1/transactions/batch, a /v1/transactions/ws message): items in order. */
export const TransactionBatchResultView = struct('TransactionBatchResult', {
  accepted: varuint,
  refused: varuint,
  results: seq(TransactionBatchItemView),
  queue: QueueStateView,
});
