// Answer types of the history routes: items newest first with the reference's
// fields (`authority`, `timestamp_ms`, `entrypoint_hash`, `result_ok`) and ours (`block_height`, the
// transaction's `hash`, `index`, `creation_time_ms`, the full `result` and its `instructions`). The
// per-account list keeps every field it had before (src/accounts/) and gains the others. `timestamp_ms` is the
// block time, the time the filters `from_ms` / `to_ms` compare.

import type { Infer } from '../../codec/codec.js';
import { option, seq, struct } from '../../codec/compound.js';
import { bool, string, varuint } from '../../codec/primitives.js';
import { TransactionResultCodec } from '../../model/block.js';
import { AccountId } from '../../model/ids.js';
import { InstructionCodec } from '../../model/instructions.js';
import { Hash } from '../../model/keys.js';

export const HistoryItemView = struct('HistoryTransaction', {
  hash: Hash,
  blockHeight: varuint,
  index: varuint,
  authority: AccountId,
  creationTimeMs: varuint,
  result: TransactionResultCodec,
  instructions: seq(InstructionCodec),
  timestampMs: varuint,
  entrypointHash: Hash,
  resultOk: bool,
});
export type HistoryItem = Infer<typeof HistoryItemView>;

/** `{items, total, next_cursor?}`: `total` counts every transaction passing the filters. */
export const HistoryPageView = struct('HistoryPage', {
  items: seq(HistoryItemView),
  total: varuint,
  nextCursor: option(string(64)),
});
export type HistoryPage = Infer<typeof HistoryPageView>;
