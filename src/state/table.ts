// One committed table of the world state: rows by id plus the secondary indexes derived from them.
// Rows are treated as immutable values: the executor replaces a row, it never edits one in place, so a
// row handed to a reader (or held by a query cursor) never changes under it.

import { encode } from '../codec/frame.js';
import { stateKey } from './keys.js';
import { leafValue } from './root.js';
import type { IndexLink, IndexName, TableDef } from './tables.js';

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

/**
 * Index entries with at least this many children keep their sorted ids until the entry changes: a
 * query over the holders of a definition held by a million accounts sorted a million ids every time
 *; smaller entries are sorted on demand.
 */
export const SORTED_CHILDREN_CACHE_MIN = 1024;

export class BaseTable<V> {
  readonly rows = new Map<string, V>();
  /**
   * Index entries: a parent's children, held as the one id itself while it has one (a Set costs a few
   * hundred bytes, and most parents of `assetsByAccount` hold a single asset, as with a million accounts).
   */
  private readonly indexes = new Map<IndexName, Map<string, string | Set<string>>>();
  private sorted: readonly string[] | undefined;
  /** Sorted ids of large index entries by `index \0 parent`; an entry is dropped when its children change. */
  private readonly sortedChildren = new Map<string, readonly string[]>();
  /** Encodings of recently written rows, oldest first; valid only while `rows` still holds that row. */
  private readonly encodedRows = new Map<string, EncodedRow<V>>();

  constructor(readonly def: TableDef<V>) {}

  get(id: string): V | undefined {
    return this.rows.get(id);
  }

  get size(): number {
    return this.rows.size;
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
   * Row ids in ascending code-unit order; cached until the next write, or (tables with `keepSorted`, the
   * due index read every block) replaced by a copy with the id inserted or removed. Arrays handed
   * out never change (query cursors keep them).
   */
  sortedIds(): readonly string[] {
    this.sorted ??= [...this.rows.keys()].sort();
    return this.sorted;
  }

  /** Ids of rows linked to `parent` in `index` (unsorted, live view: do not keep). */
  childIds(index: IndexName, parent: string): Iterable<string> | undefined {
    const children = this.indexes.get(index)?.get(parent);
    return typeof children === 'string' ? [children] : children;
  }

  /** Ids linked to `parent` in `index`, sorted; a shared array for large entries: never change it. */
  sortedChildIds(index: IndexName, parent: string): readonly string[] {
    const children = this.indexes.get(index)?.get(parent);
    if (children === undefined) return [];
    if (typeof children === 'string') return [children];
    if (children.size < SORTED_CHILDREN_CACHE_MIN) return [...children].sort();
    const key = `${index}\u0000${parent}`;
    let sorted = this.sortedChildren.get(key);
    if (sorted === undefined) {
      sorted = [...children].sort();
      this.sortedChildren.set(key, sorted);
    }
    return sorted;
  }

  private childrenChanged(index: IndexName, parent: string): void {
    if (this.sortedChildren.size > 0) this.sortedChildren.delete(`${index}\u0000${parent}`);
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
    const old = this.rows.get(id);
    if (old !== undefined && this.def.linksById === true) {
      this.rows.set(id, v); // same id, same index entries
      return;
    }
    if (old !== undefined) this.unlink(id, old);
    else this.sorted = this.def.keepSorted === true ? withId(this.sorted, id) : undefined;
    this.rows.set(id, v);
    for (const [index, parent] of this.linksOf(id, v)) {
      let byParent = this.indexes.get(index);
      if (byParent === undefined) {
        byParent = new Map();
        this.indexes.set(index, byParent);
      }
      const children = byParent.get(parent);
      this.childrenChanged(index, parent);
      if (children === undefined) byParent.set(parent, id);
      else if (typeof children !== 'string') children.add(id);
      else if (children !== id) byParent.set(parent, new Set([children, id]));
    }
  }

  remove(id: string): void {
    this.encodedRows.delete(id);
    const old = this.rows.get(id);
    if (old === undefined) return;
    this.unlink(id, old);
    this.rows.delete(id);
    this.sorted = this.def.keepSorted === true ? withoutId(this.sorted, id) : undefined;
  }

  private unlink(id: string, v: V): void {
    for (const [index, parent] of this.linksOf(id, v)) {
      const byParent = this.indexes.get(index);
      const children = byParent?.get(parent);
      if (children === undefined) continue;
      this.childrenChanged(index, parent);
      if (typeof children === 'string') {
        if (children === id) byParent!.delete(parent);
        continue;
      }
      children.delete(id);
      if (children.size === 0) byParent!.delete(parent);
    }
  }
}

/** The first index of `sorted` whose id is not below `id`. */
export function lowerBound(sorted: readonly string[], id: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function withId(sorted: readonly string[] | undefined, id: string): string[] | undefined {
  if (sorted === undefined) return undefined;
  const out = sorted.slice();
  out.splice(lowerBound(out, id), 0, id);
  return out;
}

function withoutId(sorted: readonly string[] | undefined, id: string): string[] | undefined {
  if (sorted === undefined) return undefined;
  const i = lowerBound(sorted, id);
  if (sorted[i] !== id) return sorted.slice();
  return [...sorted.slice(0, i), ...sorted.slice(i + 1)];
}
