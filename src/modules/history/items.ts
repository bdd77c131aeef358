// Rendering a selected page (page.ts) into answer items: the page's blocks are read (cached by the
// ledger), nothing else. An index names committed transactions only; one whose block cannot be read at
// this moment is left out rather than invented.

import { toHex } from '../../util/hex.js';
import { encodeCursor } from './cursor.js';
import type { SelectedPage } from './page.js';
import type { HistoryPort } from './port.js';
import type { HistoryItem, HistoryPage } from './views.js';

export async function renderPage(port: HistoryPort, page: SelectedPage): Promise<HistoryPage> {
  const items: HistoryItem[] = [];
  for (const e of page.items) {
    const block = await port.block(e.height);
    const tx = block?.transactions[e.index];
    const result = block?.results[e.index];
    if (block === undefined || tx === undefined || result === undefined) continue;
    const hash = toHex(e.hash);
    items.push({
      hash,
      blockHeight: e.height,
      index: e.index,
      authority: tx.payload.authority,
      creationTimeMs: tx.payload.creationTimeMs,
      result,
      instructions: tx.payload.instructions,
      timestampMs: block.header.creationTimeMs,
      entrypointHash: hash,
      resultOk: result.kind === 'Committed',
    });
  }
  return {
    items,
    total: page.total,
    ...(page.next === undefined ? {} : { nextCursor: encodeCursor(page.next) }),
  } as HistoryPage;
}
