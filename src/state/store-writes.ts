// The state store writes that keep a state's on-disk bookkeeping (state-index-keys.ts) in step with its
// rows: collected while a block's rows are merged, handed to the ledger with that block's row changes,
// so rows, index entries, counts (of rows, and of children of counted indexes) and the root accumulator
// land in one write transaction.

import {
  childCountKey,
  EMPTY_VALUE,
  encodeCount,
  encodeIndexMeta,
  indexEntryKey,
  orderedEntryKey,
  STATE_INDEX_META_KEY,
  tableCountKey,
} from './state-index-keys.js';
import type { BaseTable, TableWriteLog } from './table.js';
import type { IndexLink, IndexName, OrderedEntry, TableDef } from './tables.js';

/** One write of the state store (undefined value: delete). */
export interface StoreWrite {
  key: Uint8Array;
  value: Uint8Array | undefined;
}

export class StoreWriteLog implements TableWriteLog {
  private writes: StoreWrite[] = [];
  private readonly resized = new Set<number>();
  /** Parents of counted indexes (`TableDef.counted`) whose children changed, by table tag. */
  private readonly recounted = new Map<number, Map<string, IndexLink>>();

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
    if (table.counted !== undefined)
      for (const link of [...unlinked, ...linked]) {
        if (!table.counted.includes(link[0])) continue;
        let parents = this.recounted.get(table.tag);
        if (parents === undefined) {
          parents = new Map();
          this.recounted.set(table.tag, parents);
        }
        parents.set(`${link[0]}\u0000${link[1]}`, link);
      }
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
    for (const t of tables) {
      if (this.resized.has(t.def.tag))
        out.push({ key: tableCountKey(t.def.tag), value: encodeCount(t.size) });
      for (const [index, parent] of this.recounted.get(t.def.tag)?.values() ?? [])
        out.push(childCountWrite(t.def.tag, index, parent, t.childCount(index, parent)));
    }
    this.resized.clear();
    this.recounted.clear();
    out.push({ key: STATE_INDEX_META_KEY, value: encodeIndexMeta(sum) });
    return out;
  }
}

/** A parent's child count in a counted index: none stored once it has no children. */
function childCountWrite(tag: number, index: IndexName, parent: string, n: number): StoreWrite {
  return { key: childCountKey(tag, index, parent), value: n === 0 ? undefined : encodeCount(n) };
}

/** Every index entry and count of `tables` (a state loaded in the heap from a store without them). */
export function* allStoreWrites(tables: readonly BaseTable<unknown>[]): Generator<StoreWrite> {
  for (const t of tables) {
    yield { key: tableCountKey(t.def.tag), value: encodeCount(t.size) };
    const order = t.def.order;
    const counted = new Map<string, IndexLink>();
    for (const id of t.sortedIds()) {
      const row = t.get(id)!;
      for (const link of t.linksOf(id, row)) {
        const [index, parent] = link;
        yield { key: indexEntryKey(t.def.tag, index, parent, id), value: EMPTY_VALUE };
        if (t.def.counted?.includes(index) === true) counted.set(`${index}\u0000${parent}`, link);
      }
      if (order !== undefined) {
        const e = order.of(id, row);
        yield { key: orderedEntryKey(t.def.tag, order.index, e.parent, e.key, id), value: EMPTY_VALUE };
      }
    }
    for (const [index, parent] of counted.values())
      yield childCountWrite(t.def.tag, index, parent, t.childCount(index, parent));
  }
}
