// An account's committed transactions, read from the state store's account index (pipeline/tx-index.ts).

import { assert } from '../util/assert.js';
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
  // The caller parsed the page: a negative or fractional offset would slice from the wrong end.
  assert(
    Number.isSafeInteger(offset) && offset >= 0 && Number.isSafeInteger(limit) && limit >= 0,
    `account history page offset ${offset} limit ${limit}`,
  );
  const prefix = txByAccountPrefix(account);
  const all: TxLocation[] = [];
  for (const e of scan(prefix)) {
    // The scan yields only keys of this account's range (the prefix ends in the NUL no id holds).
    assert(
      e.key.length === prefix.length + 12 && e.key[prefix.length - 1] === 0,
      `account history: a ${e.key.length}-byte key in the ${prefix.length}-byte prefix range of ${account}`,
    );
    all.push(locationFromAccountKey(e.key));
  }
  all.reverse();
  return { total: all.length, items: all.slice(offset, offset + limit) };
}
