// Per-account transaction history read from the state store's account index (pipeline/tx-index.ts).

import type { TxLocation } from './tx-index.js';
import { locationFromAccountKey, txByAccountPrefix } from './tx-index.js';

export type PrefixScan = (prefix: Uint8Array) => Iterable<{ key: Uint8Array; value: Uint8Array }>;

/** Newest first. Scans the account's index range once; the range is as long as the account's history. */
export function accountHistory(
  scan: PrefixScan,
  account: string,
  offset: number,
  limit: number,
): { total: number; items: TxLocation[] } {
  const all: TxLocation[] = [];
  for (const e of scan(txByAccountPrefix(account))) all.push(locationFromAccountKey(e.key));
  all.reverse();
  return { total: all.length, items: all.slice(offset, offset + limit) };
}
