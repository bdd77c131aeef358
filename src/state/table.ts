// One committed table of the world state: rows by id plus the secondary indexes derived from them.
// Rows are treated as immutable values: the executor replaces a row, it never edits one in place, so a
// row handed to a reader (or held by a query cursor) never changes under it. Where rows and index
// entries are kept is the table's store (table-store.ts): the heap, or the state store on disk.

import { encode } from '../codec/frame.js';
import { stateKey } from './keys.js';
import { leafValue } from './root.js';
import { HeapTableStore, linksNotIn, type TableStore } from './table-store.js';
import type { IndexLink, IndexName, OrderedEntry, TableDef } from './tables.js';

export { lowerBound, SORTED_CHILDREN_CACHE_MIN } from './table-store.js';

/** A row with its persisted key, its encoded value and its state-root leaf (root.ts). */
export interface EncodedRow<V> {
  readonly row: V;
  readonly key: Uint8Array;
  readonly bytes: Uint8Array;
  readonly leaf: bigint;
}

/**
 * Rows per table whose encoding is kept after a block wrote them. The next block that changes such a row
 * needs its old bytes and leaf (to take the leaf out of the root); hot rows (busy accounts' balances)
 * change block after block, and re-encoding and re-hashing them was a large share of a block's cost.
 */
export const ENCODED_ROWS_KEPT_MAX = 16_384;

/** What a table reports of its writes, for the state store's index range (state-index-keys.ts). */
export interface TableWriteLog {
  links(
    table: TableDef<unknown>,
    id: string,
    unlinked: readonly IndexLink[],
    linked: readonly IndexLink[],
  ): void;
  sizeChanged(table: TableDef<unknown>): void;
  /** The row `id` left the ordered entry `before` and joined `after` (undefined: none). */
  ordered(
    table: TableDef<unknown>,
    id: string,
    before: OrderedEntry | undefined,
    after: OrderedEntry | undefined,
  ): void;
}

function sameEntry(a: OrderedEntry | undefined, b: OrderedEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.parent !== b.parent || a.key.length !== b.key.length) return false;
  for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return false;
  return true;
}

export class BaseTable<V> {
  /** Encodings of recently written rows, oldest first; valid only while the store still holds that row. */
  private readonly encodedRows = new Map<string, EncodedRow<V>>();
  /** Told of every index entry and size change (set on a ledger whose state store keeps indexes). */
  log: TableWriteLog | undefined;

  constructor(
    readonly def: TableDef<V>,
    readonly store: TableStore<V> = new HeapTableStore<V>(def.keepSorted === true),
  ) {}

  get(id: string): V | undefined {
    return this.store.get(id);
  }

  get size(): number {
    return this.store.size;
  }

  key(id: string): Uint8Array {
    return stateKey(this.def.tag, id);
  }

  encodeValue(v: V): Uint8Array {
    return encode(this.def.codec, v);
  }

  /**
   * The committed row `row` stored under `id`, encoded: from the kept encodings when that exact row
   * object was written by a recent block (rows are immutable, so its bytes cannot have changed),
   * otherwise computed.
   */
  encoded(id: string, row: V): EncodedRow<V> {
    const kept = this.encodedRows.get(id);
    if (kept !== undefined && kept.row === row) return kept;
    const key = this.key(id);
    const bytes = this.encodeValue(row);
    return { row, key, bytes, leaf: leafValue(key, bytes) };
  }

  /**
   * Row ids in ascending code-unit order; an array that never changes (query cursors keep it), replaced
   * after writes.
   */
  sortedIds(): readonly string[] {
    return this.store.sortedIds();
  }

  /** The first `n` of sortedIds(), or undefined when the store must read them all to tell (table-store.ts). */
  firstIds(n: number): readonly string[] | undefined {
    return this.store.firstIds(n);
  }

  /** Ids of rows linked to `parent` in `index` (unsorted, live view: do not keep). */
  childIds(index: IndexName, parent: string): Iterable<string> | undefined {
    return this.store.childIds(index, parent);
  }

  /** Ids linked to `parent` in `index`, sorted; a shared array for large entries: never change it. */
  sortedChildIds(index: IndexName, parent: string): readonly string[] {
    return this.store.sortedChildIds(index, parent);
  }

  /** The first `n` of sortedChildIds(), or undefined when the store must read them all to tell. */
  firstChildIds(index: IndexName, parent: string, n: number): readonly string[] | undefined {
    return this.store.firstChildIds(index, parent, n);
  }

  /** How many ids are linked to `parent` in `index` (table-store.ts `childCount`). */
  childCount(index: IndexName, parent: string): number {
    return this.store.childCount(index, parent);
  }

  linksOf(id: string, v: V): readonly IndexLink[] {
    return this.def.links?.(id, v) ?? [];
  }

  /** Stores `v` under `id`; `encoding`, when given, is kept for the next block that changes the row. */
  put(id: string, v: V, encoding?: EncodedRow<V>): void {
    this.encodedRows.delete(id);
    if (encoding !== undefined && encoding.row === v) {
      this.encodedRows.set(id, encoding);
      if (this.encodedRows.size > ENCODED_ROWS_KEPT_MAX)
        this.encodedRows.delete(this.encodedRows.keys().next().value!);
    }
    const old = this.store.get(id);
    this.reorder(id, old, v);
    if (old !== undefined && this.def.linksById === true) {
      this.store.put(id, v, old, [], []); // same id, same index entries
      return;
    }
    const before = old === undefined ? [] : this.linksOf(id, old);
    const after = this.linksOf(id, v);
    const unlinked = linksNotIn(before, after);
    const linked = linksNotIn(after, before);
    this.store.put(id, v, old, unlinked, linked);
    if (this.log !== undefined) {
      if (unlinked.length + linked.length > 0)
        this.log.links(this.def as TableDef<unknown>, id, unlinked, linked);
      if (old === undefined) this.log.sizeChanged(this.def as TableDef<unknown>);
    }
  }

  /**
   * Keeps the ordered index (`TableDef.order`) of a table whose writes go to the state store: the
   * entry `old` gave moves to the one `v` gives. A state without a store log (the heap) keeps none.
   */
  private reorder(id: string, old: V | undefined, v: V | undefined): void {
    const order = this.def.order;
    if (order === undefined || this.log === undefined) return;
    const before = old === undefined ? undefined : order.of(id, old);
    const after = v === undefined ? undefined : order.of(id, v);
    if (sameEntry(before, after)) return;
    this.store.reorder?.(id, before, after);
    this.log.ordered(this.def as TableDef<unknown>, id, before, after);
  }

  remove(id: string): void {
    this.encodedRows.delete(id);
    const old = this.store.get(id);
    if (old === undefined) return;
    const unlinked = this.linksOf(id, old);
    this.reorder(id, old, undefined);
    this.store.remove(id, old, unlinked);
    if (this.log !== undefined) {
      if (unlinked.length > 0) this.log.links(this.def as TableDef<unknown>, id, unlinked, []);
      this.log.sizeChanged(this.def as TableDef<unknown>);
    }
  }
}
