// Answer types of the transaction routes.

import { option, struct } from '../../codec/compound.js';
import { string, varuint } from '../../codec/primitives.js';
import { Hash } from '../../model/keys.js';
import { RejectionCodec } from '../../model/rejections.js';

export const TransactionStatusView = struct('TransactionStatusView', {
  hash: Hash,
  /** Queued, Committed, Rejected, Expired or Dropped. */
  status: string(16),
  blockHeight: option(varuint),
  reason: option(RejectionCodec),
  message: option(string(256)),
});
