// The state store writes that keep a state's on-disk bookkeeping (state-index-keys.ts) in step with its
// rows: collected while a block's rows are merged, handed to the ledger with that block's row changes,
// so rows, index entries, counts and the root accumulator land in one write transaction.

import {
  EMPTY_VALUE,
  encodeCount,
  encodeIndexMeta,
  indexEntryKey,
  orderedEntryKey,
  STATE_INDEX_META_KEY,
  tableCountKey,
} from './state-index-keys.js';
import type { BaseTable, TableWriteLog } from './table.js';
import type { IndexLink, OrderedEntry, TableDef } from './tables.js';

/** One write of the state store (undefined value: delete). */
export interface StoreWrite {
  key: Uint8Array;
  value: Uint8Array | undefined;
}

export class StoreWriteLog implements TableWriteLog {
  private writes: StoreWrite[] = [];
  private readonly resized = new Set<number>();

  links(
    table: TableDef<unknown>,
    id: string,
    unlinked: readonly IndexLink[],
    linked: readonly IndexLink[],
  ): void {
    for (const [index, parent] of unlinked)
      this.writes.push({ key: indexEntryKey(table.tag, index, parent, id), value: undefined });
    for (const [index, parent] of linked)
      this.writes.push({ key: indexEntryKey(table.tag, index, parent, id), value: EMPTY_VALUE });
  }

  ordered(
    table: TableDef<unknown>,
    id: string,
    before: OrderedEntry | undefined,
    after: OrderedEntry | undefined,
  ): void {
    const index = table.order!.index;
    if (before !== undefined)
      this.writes.push({
        key: orderedEntryKey(table.tag, index, before.parent, before.key, id),
        value: undefined,
      });
    if (after !== undefined)
      this.writes.push({
        key: orderedEntryKey(table.tag, index, after.parent, after.key, id),
        value: EMPTY_VALUE,
      });
  }

  sizeChanged(table: TableDef<unknown>): void {
    this.resized.add(table.tag);
  }

  /** The writes collected since the last call, with the counts of resized tables and the accumulator. */
  take(tables: readonly BaseTable<unknown>[], sum: bigint): StoreWrite[] {
    const out = this.writes;
    this.writes = [];
    for (const t of tables)
      if (this.resized.has(t.def.tag))
        out.push({ key: tableCountKey(t.def.tag), value: encodeCount(t.size) });
    this.resized.clear();
    out.push({ key: STATE_INDEX_META_KEY, value: encodeIndexMeta(sum) });
    return out;
  }
}

/** Every index entry and count of `tables` (a state loaded in the heap from a store without them). */
export function* allStoreWrites(tables: readonly BaseTable<unknown>[]): Generator<StoreWrite> {
  for (const t of tables) {
    yield { key: tableCountKey(t.def.tag), value: encodeCount(t.size) };
    const order = t.def.order;
    for (const id of t.sortedIds()) {
      const row = t.get(id)!;
      for (const [index, parent] of t.linksOf(id, row))
        yield { key: indexEntryKey(t.def.tag, index, parent, id), value: EMPTY_VALUE };
      if (order !== undefined) {
        const e = order.of(id, row);
        yield { key: orderedEntryKey(t.def.tag, order.index, e.parent, e.key, id), value: EMPTY_VALUE };
      }
    }
  }
}
