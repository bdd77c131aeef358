// What the history family needs from the node, and `historyPort` over a ledger (the node's own or the
// replica its committed reads name): the commit-time indexes (pipeline/index-writes.ts) read range by
// range, committed blocks for the page's items, and whether an id names something in the committed
// state. Never a scan of the chain.

import type { Block } from '../../model/block.js';
import type { HistoryEntry } from '../../pipeline/history-entries.js';
import type { Ledger } from '../../pipeline/ledger.js';
import {
  TX_BY_ACCOUNT_PREFIX,
  TX_BY_ASSET_PREFIX,
  TX_BY_DEFINITION_PREFIX,
} from '../../pipeline/tx-index.js';

export type { HistoryEntry };

/** Which index: account → transactions, asset definition → transactions, asset → transactions. */
export type HistoryIndex = 'account' | 'definition' | 'asset';

export interface HistoryPort {
  /** The index's entries under `id`, oldest first, with every committed block's entries in them. */
  entries(index: HistoryIndex, id: string): Promise<Iterable<HistoryEntry>>;
  /** Whether the account index lists the transaction at (height, index) under `account` (after `entries`). */
  involves(account: string, height: number, index: number): boolean;
  block(height: number): Promise<Block | undefined>;
  accountExists(id: string): boolean;
  definitionExists(id: string): boolean;
}

const TAGS: Readonly<Record<HistoryIndex, number>> = {
  account: TX_BY_ACCOUNT_PREFIX,
  definition: TX_BY_DEFINITION_PREFIX,
  asset: TX_BY_ASSET_PREFIX,
};

export function historyPort(ledger: Ledger): HistoryPort {
  return {
    entries: (index, id) => ledger.indexEntries(TAGS[index], id),
    involves: (account, height, index) => ledger.indexHas(TX_BY_ACCOUNT_PREFIX, account, { height, index }),
    block: (height) => ledger.block(height),
    accountExists: (id) => ledger.state.account(id) !== undefined,
    definitionExists: (id) => ledger.state.assetDefinition(id) !== undefined,
  };
}
