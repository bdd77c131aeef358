// Where a committed table's rows and index entries live. `BaseTable` (table.ts) keeps the table's rules
// (keys, encodings, which index entries a row belongs to) and hands storage to one of two stores: the
// heap store below (the simulator, tests, memory chains) or the disk store (disk-table-store.ts: rows
// and index entries in the state store, a bounded row cache in the heap).

import type { IndexLink, IndexName, OrderedEntry } from './tables.js';

/**
 * Index entries with at least this many children keep their sorted ids until the entry changes: a
 * query over the holders of a definition held by a million accounts sorted a million ids every time;
 * smaller entries are sorted on demand.
 */
export const SORTED_CHILDREN_CACHE_MIN = 1024;

/** The rows of one committed table and its index entries. Ids sort in code-unit order everywhere. */
export interface TableStore<V> {
  get(id: string): V | undefined;
  readonly size: number;
  /** Every id in ascending code-unit order; the array is never changed afterwards (cursors keep it). */
  sortedIds(): readonly string[];
  /**
   * The first `n` ids of sortedIds() (fewer when the table is smaller), reading only as much as they
   * need; undefined when this store cannot tell them without the whole order (then use sortedIds()).
   */
  firstIds(n: number): readonly string[] | undefined;
  /** Ids linked to `parent` in `index` (unsorted; do not keep). */
  childIds(index: IndexName, parent: string): Iterable<string> | undefined;
  /** Ids linked to `parent` in `index`, sorted; may be a shared array: never change it. */
  sortedChildIds(index: IndexName, parent: string): readonly string[];
  /** How many ids are linked to `parent` in `index` (on disk, one read for a counted index: `TableDef.counted`). */
  childCount(index: IndexName, parent: string): number;
  /**
   * The first `n` of sortedChildIds(index, parent), reading only as much as they need; undefined when
   * this store cannot tell them without the whole order (as `firstIds`).
   */
  firstChildIds(index: IndexName, parent: string, n: number): readonly string[] | undefined;
  /**
   * Stores `v` under `id` (`old`: the row it replaces); `unlinked` and `linked` are the index entries the
   * row leaves and joins (net: none in both).
   */
  put(
    id: string,
    v: V,
    old: V | undefined,
    unlinked: readonly IndexLink[],
    linked: readonly IndexLink[],
  ): void;
  /** Removes the row `old` stored under `id` and its index entries `unlinked`. */
  remove(id: string, old: V, unlinked: readonly IndexLink[]): void;
  /**
   * The row `id` moved in the table's ordered index (`TableDef.order`): out of `before`, into `after`
   * (undefined: none). Only a store that keeps the ordered index has this.
   */
  reorder?(id: string, before: OrderedEntry | undefined, after: OrderedEntry | undefined): void;
}

/** Everything in the heap: rows by id, index entries by (index, parent). */
export class HeapTableStore<V> implements TableStore<V> {
  readonly rows = new Map<string, V>();
  /**
   * Index entries: a parent's children, held as the one id itself while it has one (a Set costs a few
   * hundred bytes, and most parents of `assetsByAccount` hold a single asset, as with a million accounts).
   */
  private readonly indexes = new Map<IndexName, Map<string, string | Set<string>>>();
  private sorted: readonly string[] | undefined;
  /** Sorted ids of large index entries by `index \0 parent`; an entry is dropped when its children change. */
  private readonly sortedChildren = new Map<string, readonly string[]>();

  constructor(private readonly keepSorted: boolean) {}

  get(id: string): V | undefined {
    return this.rows.get(id);
  }

  get size(): number {
    return this.rows.size;
  }

  sortedIds(): readonly string[] {
    this.sorted ??= [...this.rows.keys()].sort();
    return this.sorted;
  }

  firstIds(n: number): readonly string[] {
    return this.sortedIds().slice(0, n);
  }

  childIds(index: IndexName, parent: string): Iterable<string> | undefined {
    const children = this.indexes.get(index)?.get(parent);
    return typeof children === 'string' ? [children] : children;
  }

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

  firstChildIds(index: IndexName, parent: string, n: number): readonly string[] {
    return this.sortedChildIds(index, parent).slice(0, n);
  }

  childCount(index: IndexName, parent: string): number {
    const children = this.indexes.get(index)?.get(parent);
    if (children === undefined) return 0;
    return typeof children === 'string' ? 1 : children.size;
  }

  put(
    id: string,
    v: V,
    old: V | undefined,
    unlinked: readonly IndexLink[],
    linked: readonly IndexLink[],
  ): void {
    if (old === undefined) this.sorted = this.keepSorted ? withId(this.sorted, id) : undefined;
    this.rows.set(id, v);
    this.unlink(id, unlinked);
    for (const [index, parent] of linked) {
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

  remove(id: string, _old: V, unlinked: readonly IndexLink[]): void {
    this.unlink(id, unlinked);
    this.rows.delete(id);
    this.sorted = this.keepSorted ? withoutId(this.sorted, id) : undefined;
  }

  private childrenChanged(index: IndexName, parent: string): void {
    if (this.sortedChildren.size > 0) this.sortedChildren.delete(`${index}\u0000${parent}`);
  }

  private unlink(id: string, links: readonly IndexLink[]): void {
    for (const [index, parent] of links) {
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

export function withId(sorted: readonly string[] | undefined, id: string): string[] | undefined {
  if (sorted === undefined) return undefined;
  const out = sorted.slice();
  out.splice(lowerBound(out, id), 0, id);
  return out;
}

export function withoutId(sorted: readonly string[] | undefined, id: string): string[] | undefined {
  if (sorted === undefined) return undefined;
  const i = lowerBound(sorted, id);
  if (sorted[i] !== id) return sorted.slice();
  return [...sorted.slice(0, i), ...sorted.slice(i + 1)];
}

/** The links in `a` that are not in `b`. */
export function linksNotIn(a: readonly IndexLink[], b: readonly IndexLink[]): IndexLink[] {
  return a.filter(([i, p]) => !b.some(([j, q]) => i === j && p === q));
}
