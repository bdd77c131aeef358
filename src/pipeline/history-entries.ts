// Decoded entries of the history indexes (tx-index.ts key layout, tx-summary.ts value layout), oldest
// first as the store yields them. What a history reader sees: the location, the hash and the summary.

import { assert } from '../util/assert.js';
import { locationFromAccountKey } from './tx-index.js';
import { decodeIndexValue, type TxSummary } from './tx-summary.js';

export interface HistoryEntry {
  height: number;
  index: number;
  hash: Uint8Array;
  /** undefined for entries written before summaries existed (tx-summary.ts). */
  summary: TxSummary | undefined;
}

export function* decodeHistoryEntries(
  raw: Iterable<{ key: Uint8Array; value: Uint8Array }>,
): Iterable<HistoryEntry> {
  let last: { height: number; index: number } | undefined;
  for (const { key, value } of raw) {
    const loc = locationFromAccountKey(key);
    // Keys sort by (height, index) big-endian, and the store yields them in key order.
    assert(
      last === undefined ||
        loc.height > last.height ||
        (loc.height === last.height && loc.index > last.index),
      `history entries out of order: ${loc.height}/${loc.index} after ${last?.height}/${last?.index}`,
    );
    last = loc;
    const v = decodeIndexValue(value);
    yield { height: loc.height, index: loc.index, hash: v.hash, summary: v.summary };
  }
}
