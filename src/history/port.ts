// What the history family needs from the node (node/families.ts adapts the ledger): the commit-time
// indexes (pipeline/index-writes.ts) read range by range, committed blocks for the page's items, and
// whether an id names something in the committed state. Never a scan of the chain.

import type { Block } from '../model/block.js';
import type { HistoryEntry } from '../pipeline/history-entries.js';

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
