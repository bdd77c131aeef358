// The index entries a committed block adds (tx-index.ts): hash → location, and for
// every account, asset definition and asset the transaction concerns, (id, location) → the transaction's
// summary (tx-summary.ts: hash, result, block time, instruction kinds). Written with the block's state
// changes in the same state-store transaction (ledger.ts), and rebuilt by replay (`torana rebuild`).
// Deterministic: per transaction, ids in sorted order.

import type { Block } from '../model/block.js';
import type { StateChange } from '../storage/block-store.js';
import { assert } from '../util/assert.js';
import { involvedAccounts } from './involved.js';
import { touchedAssets } from './touched.js';
import {
  encodeLocation,
  TX_BY_ACCOUNT_PREFIX,
  TX_BY_ASSET_PREFIX,
  TX_BY_DEFINITION_PREFIX,
  txByAccountKeyAt,
  txByHashKey,
  txIndexPrefix,
} from './tx-index.js';
import { encodeIndexValue, kindsOf } from './tx-summary.js';

/** Appends the index entries of `block` (its transactions' hashes in order) to `changes`. */
export function pushIndexChanges(block: Block, hashes: readonly Uint8Array[], changes: StateChange[]): void {
  const height = block.header.height;
  // Entries are placed by position: a hash must belong to the transaction and result at its index.
  assert(
    hashes.length === block.transactions.length && block.results.length === hashes.length,
    `block ${height}: index entries for ${hashes.length} hashes, ${block.transactions.length} transactions, ${block.results.length} results`,
  );
  const blockTimeMs = block.header.creationTimeMs;
  // One id usually appears in many transactions of a block: encode its key prefix once (a map per tag).
  const prefixes = new Map<number, Map<string, Uint8Array>>();
  const prefixOf = (tag: number, id: string): Uint8Array => {
    let byId = prefixes.get(tag);
    if (byId === undefined) {
      byId = new Map();
      prefixes.set(tag, byId);
    }
    let p = byId.get(id);
    if (p === undefined) {
      // Ids come from decoded transactions and never hold a NUL, the prefix's terminator: otherwise one
      // id's range could hold another's entries.
      assert(!id.includes('\0'), `index entry for an id with a NUL: ${JSON.stringify(id)}`);
      p = txIndexPrefix(tag, id);
      byId.set(id, p);
    }
    return p;
  };
  for (let i = 0; i < hashes.length; i++) {
    const loc = { height, index: i };
    const h = hashes[i]!;
    // A shorter hash would leave zeros in the key, a longer one throw in the middle of the commit.
    assert(h.length === 32, `block ${height}: index entry of a ${h.length}-byte hash`);
    const tx = block.transactions[i]!;
    changes.push({ key: txByHashKey(h), value: encodeLocation(loc) });
    const value = encodeIndexValue(h, {
      ok: block.results[i]!.kind === 'Committed',
      blockTimeMs,
      kinds: kindsOf(tx.payload.instructions),
    });
    for (const a of involvedAccounts(tx))
      changes.push({ key: txByAccountKeyAt(prefixOf(TX_BY_ACCOUNT_PREFIX, a), loc), value });
    const touched = touchedAssets(tx);
    for (const d of touched.definitions)
      changes.push({ key: txByAccountKeyAt(prefixOf(TX_BY_DEFINITION_PREFIX, d), loc), value });
    for (const a of touched.assets)
      changes.push({ key: txByAccountKeyAt(prefixOf(TX_BY_ASSET_PREFIX, a), loc), value });
  }
}
