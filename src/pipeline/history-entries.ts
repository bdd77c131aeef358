// Decoded entries of the history indexes (tx-index.ts key layout, tx-summary.ts value layout), oldest
// first as the store yields them. What a history reader sees: the location, the hash and the summary.

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
  for (const { key, value } of raw) {
    const loc = locationFromAccountKey(key);
    const v = decodeIndexValue(value);
    yield { height: loc.height, index: loc.index, hash: v.hash, summary: v.summary };
  }
}
