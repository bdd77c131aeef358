// The history family's port (src/history/port.ts) over the node's ledger: the commit-time indexes
// (pipeline/index-writes.ts), committed blocks and the committed state's accounts and definitions.

import type { HistoryIndex, HistoryPort } from '../history/port.js';
import type { Ledger } from '../pipeline/ledger.js';
import { TX_BY_ACCOUNT_PREFIX, TX_BY_ASSET_PREFIX, TX_BY_DEFINITION_PREFIX } from '../pipeline/tx-index.js';

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
