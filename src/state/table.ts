// One committed table of the world state: rows by id plus the secondary indexes derived from them.
// Rows are treated as immutable values: the executor replaces a row, it never edits one in place, so a
// row handed to a reader (or held by a query cursor) never changes under it.

import { encode } from '../codec/frame.js';
import { stateKey } from './keys.js';
import type { IndexLink, IndexName, TableDef } from './tables.js';

export class BaseTable<V> {
  readonly rows = new Map<string, V>();
  private readonly indexes = new Map<IndexName, Map<string, Set<string>>>();
  private sorted: string[] | undefined;

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

  /** Row ids in ascending code-unit order; cached until the next write. */
  sortedIds(): readonly string[] {
    this.sorted ??= [...this.rows.keys()].sort();
    return this.sorted;
  }

  /** Ids of rows linked to `parent` in `index` (unsorted, live view: do not keep). */
  childSet(index: IndexName, parent: string): ReadonlySet<string> | undefined {
    return this.indexes.get(index)?.get(parent);
  }

  linksOf(id: string, v: V): readonly IndexLink[] {
    return this.def.links?.(id, v) ?? [];
  }

  put(id: string, v: V): void {
    const old = this.rows.get(id);
    if (old !== undefined) this.unlink(id, old);
    else this.sorted = undefined;
    this.rows.set(id, v);
    for (const [index, parent] of this.linksOf(id, v)) {
      let byParent = this.indexes.get(index);
      if (byParent === undefined) {
        byParent = new Map();
        this.indexes.set(index, byParent);
      }
      let set = byParent.get(parent);
      if (set === undefined) {
        set = new Set();
        byParent.set(parent, set);
      }
      set.add(id);
    }
  }

  remove(id: string): void {
    const old = this.rows.get(id);
    if (old === undefined) return;
    this.unlink(id, old);
    this.rows.delete(id);
    this.sorted = undefined;
  }

  private unlink(id: string, v: V): void {
    for (const [index, parent] of this.linksOf(id, v)) {
      const byParent = this.indexes.get(index);
      const set = byParent?.get(parent);
      if (set === undefined) continue;
      set.delete(id);
      if (set.size === 0) byParent!.delete(parent);
    }
  }
}
