// A committed table whose rows and index entries are in the state store (state-index-keys.ts, keys.ts):
// the heap holds a bounded cache of decoded rows (shared by every table of a state) and the writes of
// blocks that are committed but not yet durable in the store (the ledger writes the store after the
// block is visible). Reads are synchronous (LMDB reads are) and see exactly the committed state:
// pending writes first, then the cache, then the store. Ids come back in code-unit order, as from the
// heap store, whatever the byte order of their keys.

import { decode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { assert } from '../util/assert.js';
import { toHex } from '../util/hex.js';
import { StateError } from './errors.js';
import { parseStateKey, stateKey } from './keys.js';
import { type OrderedStep, type OrderedWalk, type RangeReader, walkOrdered } from './ordered-index.js';
import { shareEmptyMaps } from './persist.js';
import { childCountKey, childOf, decodeCount, indexParentPrefix } from './state-index-keys.js';
import { SORTED_CHILDREN_CACHE_MIN, type TableStore, withId, withoutId } from './table-store.js';
import type { IndexLink, IndexName, OrderedEntry, TableDef } from './tables.js';

/** What a disk table reads: the state store's committed entries. */
export interface StoreReader extends Partial<RangeReader> {
  get(key: Uint8Array): Uint8Array | undefined;
  /** Entries whose key starts with `prefix`, sorted by key bytes. */
  entries(prefix: Uint8Array): Iterable<{ key: Uint8Array; value: Uint8Array }>;
}

/** A cached answer that the store holds no row under the id (a miss is as hot as a hit: parameters, controls). */
export const ABSENT: unique symbol = Symbol('absent');

interface CachedRow {
  value: unknown;
  /** The cache's insertion count when the row was (re)inserted: each table's map is in this order. */
  tick: number;
}

/**
 * Decoded rows (or ABSENT) of every disk table of one state; at most `max`, the least recently used out
 * first. One map per table tag, each in insertion order (no key is built per read); the oldest row of
 * all is the oldest first row of the maps. A read moves its row to the end only when the row is in the
 * older half of the cache (a row read again soon after is not moved each time): a row read survives at
 * least `max / 2` further insertions.
 */
export class RowCache {
  private readonly tables: (Map<string, CachedRow> | undefined)[] = [];
  /** The same maps, densely (eviction looks at each one's first row). */
  private readonly maps: Map<string, CachedRow>[] = [];
  private rows = 0;
  private ticks = 0;

  constructor(readonly max: number) {
    assert(Number.isSafeInteger(max) && max >= 1, `row cache of ${max} rows`);
  }

  get size(): number {
    return this.rows;
  }

  /** The cached row, ABSENT when the store is known to hold none, undefined when not cached. */
  get(tag: number, id: string): unknown {
    const m = this.tables[tag];
    const c = m?.get(id);
    if (c === undefined) return undefined;
    if (c.tick <= this.ticks - (this.max >> 1)) {
      m!.delete(id);
      c.tick = ++this.ticks;
      m!.set(id, c);
    }
    return c.value;
  }

  set(tag: number, id: string, v: unknown): void {
    let m = this.tables[tag];
    if (m === undefined) {
      m = new Map();
      this.tables[tag] = m;
      this.maps.push(m);
    }
    const c = m.get(id);
    if (c !== undefined) {
      m.delete(id);
      c.value = v;
      c.tick = ++this.ticks;
      m.set(id, c);
      return;
    }
    m.set(id, { value: v, tick: ++this.ticks });
    if (++this.rows > this.max) this.evictOldest();
    assert(this.rows <= this.max, `row cache holds ${this.rows} of ${this.max}`);
  }

  delete(tag: number, id: string): void {
    if (this.tables[tag]?.delete(id)) this.rows--;
  }

  private evictOldest(): void {
    let oldest: Map<string, CachedRow> | undefined;
    let oldestId = '';
    let oldestTick = Number.POSITIVE_INFINITY;
    for (const m of this.maps) {
      for (const [id, c] of m) {
        if (c.tick < oldestTick) {
          oldest = m;
          oldestId = id;
          oldestTick = c.tick;
        }
        break;
      }
    }
    assert(oldest !== undefined, 'row cache: evicting from no rows');
    oldest.delete(oldestId);
    this.rows--;
  }
}

/** What the disk tables of one state share: the store, the row cache and the version being written. */
export interface DiskContext {
  readonly reader: StoreReader;
  readonly cache: RowCache;
  /** The version (block height) the writes being merged belong to. */
  writingVersion: number;
}

interface Pending<T> {
  value: T;
  version: number;
}

/** A character whose UTF-8 bytes sort after a supplementary character's while its code unit sorts before. */
const HIGH_BMP = /[\uE000-\uFFFF]/;

/** Tables of at most this many rows keep their sorted ids between writes (the rest scan their range). */
export const SORTED_IDS_KEPT_MAX = 4096;

export class DiskTableStore<V> implements TableStore<V> {
  /** Rows written by blocks not yet durable in the store (undefined: deleted), with the version. */
  private readonly pending = new Map<string, Pending<V | undefined>>();
  /** Index entries changed by those blocks, by `index \0 parent`, then child: linked or not. */
  private readonly pendingLinks = new Map<string, Map<string, Pending<boolean>>>();
  /** The sorted ids of a small table (at most SORTED_IDS_KEPT_MAX), kept between writes. */
  private sorted: readonly string[] | undefined;
  /**
   * Sorted children of large index entries (a definition's holders), by `index \0 parent`, oldest first,
   * dropped when the entry changes; together at most as many ids as the row cache holds rows.
   */
  private readonly sortedChildren = new Map<string, readonly string[]>();
  private sortedChildrenIds = 0;
  /** Child counts of counted indexes (`TableDef.counted`) changed by those blocks, by `index \0 parent`. */
  private readonly pendingCounts = new Map<string, Pending<number>>();
  /** Ordered index entries (`TableDef.order`) changed by those blocks, by parent, then child. */
  private readonly pendingOrder = new Map<string, Map<string, Pending<OrderedEntry | undefined>>>();

  constructor(
    private readonly def: TableDef<V>,
    private readonly ctx: DiskContext,
    private count: number,
  ) {
    assert(Number.isSafeInteger(count) && count >= 0, `table ${def.name}: ${count} rows`);
  }

  get size(): number {
    return this.count;
  }

  get(id: string): V | undefined {
    const p = this.pending.get(id);
    if (p !== undefined) return p.value;
    const cached = this.ctx.cache.get(this.def.tag, id);
    if (cached === ABSENT) return undefined;
    if (cached !== undefined) return cached as V;
    const key = stateKey(this.def.tag, id);
    const bytes = this.ctx.reader.get(key);
    if (bytes === undefined) {
      // Rows come into the committed state only through `put`, which replaces this answer.
      this.ctx.cache.set(this.def.tag, id, ABSENT);
      return undefined;
    }
    const r = decode(this.def.codec, bytes, DEFAULT_DECODE_LIMITS);
    if (!r.ok)
      throw new StateError(
        'state_invalid_entry',
        `state entry ${toHex(key)}: undecodable value (${r.error.code}: ${r.error.message})`,
        { key: toHex(key) },
      );
    const row = shareEmptyMaps(r.value);
    this.ctx.cache.set(this.def.tag, id, row);
    return row;
  }

  sortedIds(): readonly string[] {
    if (this.sorted !== undefined) return this.sorted;
    const ids = new Set<string>();
    for (const { key } of this.ctx.reader.entries(Uint8Array.of(this.def.tag))) {
      const parsed = parseStateKey(key);
      if (parsed !== undefined) ids.add(parsed.id);
    }
    for (const [id, p] of this.pending) {
      if (p.value === undefined) ids.delete(id);
      else ids.add(id);
    }
    const sorted = [...ids].sort();
    if (sorted.length <= SORTED_IDS_KEPT_MAX) this.sorted = sorted;
    return sorted;
  }

  /**
   * The first `n` ids in code-unit order from the start of the table's key range. The store's order is
   * UTF-8 byte order, which is code-unit order except that a character of U+E000..U+FFFF sorts after a
   * supplementary one in bytes and before it in code units: a prefix read in byte order is the code-unit
   * prefix unless one of its ids holds such a character (an id after it in bytes could then come before
   * it in code units), and then this answers undefined. Rows written by blocks not yet durable are merged in.
   */
  firstIds(n: number): readonly string[] | undefined {
    assert(Number.isSafeInteger(n) && n >= 0, `first ${n} ids`);
    if (this.sorted !== undefined) return this.sorted.slice(0, n);
    const out: string[] = [];
    if (n > 0)
      for (const { key } of this.ctx.reader.entries(Uint8Array.of(this.def.tag))) {
        const parsed = parseStateKey(key);
        if (parsed === undefined || this.pending.has(parsed.id)) continue;
        if (HIGH_BMP.test(parsed.id)) return undefined;
        out.push(parsed.id);
        if (out.length === n) break;
      }
    for (const [id, p] of this.pending) {
      if (p.value === undefined) continue;
      if (HIGH_BMP.test(id)) return undefined;
      out.push(id);
    }
    out.sort();
    if (out.length > n) out.length = n;
    return out;
  }

  childIds(index: IndexName, parent: string): Iterable<string> | undefined {
    const ids = this.children(index, parent);
    return ids.length === 0 ? undefined : ids;
  }

  sortedChildIds(index: IndexName, parent: string): readonly string[] {
    const k = `${index}\u0000${parent}`;
    const kept = this.sortedChildren.get(k);
    if (kept !== undefined) return kept;
    const sorted = this.children(index, parent).sort();
    if (sorted.length >= SORTED_CHILDREN_CACHE_MIN && sorted.length <= this.ctx.cache.max) {
      this.sortedChildren.set(k, sorted);
      this.sortedChildrenIds += sorted.length;
      while (this.sortedChildrenIds > this.ctx.cache.max)
        this.forgetChildren(this.sortedChildren.keys().next().value!);
    }
    return sorted;
  }

  /**
   * The first `n` children of `parent` in code-unit order from the start of the entry's key range, the
   * pending changes merged in; undefined when one of them holds a character of U+E000..U+FFFF (as
   * `firstIds`). A kept sorted list answers without reading the store.
   */
  firstChildIds(index: IndexName, parent: string, n: number): readonly string[] | undefined {
    assert(Number.isSafeInteger(n) && n >= 0, `first ${n} children`);
    const kept = this.sortedChildren.get(`${index}\u0000${parent}`);
    if (kept !== undefined) return kept.slice(0, n);
    const prefix = indexParentPrefix(this.def.tag, index, parent);
    const changed = this.pendingLinks.get(`${index}\u0000${parent}`);
    const out: string[] = [];
    if (n > 0)
      for (const { key } of this.ctx.reader.entries(prefix)) {
        const child = childOf(key, prefix.length);
        if (child === undefined || changed?.has(child)) continue;
        if (HIGH_BMP.test(child)) return undefined;
        out.push(child);
        if (out.length === n) break;
      }
    if (changed !== undefined)
      for (const [child, p] of changed) {
        if (!p.value) continue;
        if (HIGH_BMP.test(child)) return undefined;
        out.push(child);
      }
    out.sort();
    if (out.length > n) out.length = n;
    return out;
  }

  childCount(index: IndexName, parent: string): number {
    if (this.def.counted?.includes(index) !== true) return this.children(index, parent).length;
    const p = this.pendingCounts.get(`${index}\u0000${parent}`);
    if (p !== undefined) return p.value;
    const bytes = this.ctx.reader.get(childCountKey(this.def.tag, index, parent));
    if (bytes === undefined) return 0;
    const n = decodeCount(bytes);
    if (n === undefined)
      throw new StateError(
        'state_invalid_entry',
        `state entry ${toHex(childCountKey(this.def.tag, index, parent))}: not a child count`,
        { key: toHex(childCountKey(this.def.tag, index, parent)) },
      );
    return n;
  }

  private forgetChildren(k: string): void {
    const kept = this.sortedChildren.get(k);
    if (kept === undefined) return;
    this.sortedChildren.delete(k);
    this.sortedChildrenIds -= kept.length;
  }

  /** The children of one index entry: the store's range with the pending changes on top (unsorted). */
  private children(index: IndexName, parent: string): string[] {
    const prefix = indexParentPrefix(this.def.tag, index, parent);
    const changed = this.pendingLinks.get(`${index}\u0000${parent}`);
    const out: string[] = [];
    for (const { key } of this.ctx.reader.entries(prefix)) {
      const child = childOf(key, prefix.length);
      if (child === undefined || changed?.has(child)) continue;
      out.push(child);
    }
    if (changed !== undefined) for (const [child, p] of changed) if (p.value) out.push(child);
    return out;
  }

  put(
    id: string,
    v: V,
    old: V | undefined,
    unlinked: readonly IndexLink[],
    linked: readonly IndexLink[],
  ): void {
    const version = this.ctx.writingVersion;
    this.pending.set(id, { value: v, version });
    this.ctx.cache.set(this.def.tag, id, v);
    if (old === undefined) {
      this.count++;
      const sorted = withId(this.sorted, id);
      this.sorted = sorted !== undefined && sorted.length <= SORTED_IDS_KEPT_MAX ? sorted : undefined;
    }
    this.relink(id, unlinked, false, version);
    this.relink(id, linked, true, version);
  }

  remove(id: string, _old: V, unlinked: readonly IndexLink[]): void {
    const version = this.ctx.writingVersion;
    this.pending.set(id, { value: undefined, version });
    this.ctx.cache.delete(this.def.tag, id);
    assert(this.count > 0, `table ${this.def.name}: removing a row from none`);
    this.count--;
    this.sorted = withoutId(this.sorted, id);
    this.relink(id, unlinked, false, version);
  }

  private relink(id: string, links: readonly IndexLink[], linked: boolean, version: number): void {
    for (const [index, parent] of links) {
      const k = `${index}\u0000${parent}`;
      this.forgetChildren(k);
      // `links` are the entries the row joins or leaves (net): each moves the parent's count by one.
      if (this.def.counted?.includes(index) === true) {
        const n = this.childCount(index, parent) + (linked ? 1 : -1);
        assert(n >= 0, `table ${this.def.name}: ${index} of ${parent} below zero children`);
        this.pendingCounts.set(k, { value: n, version });
      }
      let changed = this.pendingLinks.get(k);
      if (changed === undefined) {
        changed = new Map();
        this.pendingLinks.set(k, changed);
      }
      changed.set(id, { value: linked, version });
    }
  }

  reorder(id: string, before: OrderedEntry | undefined, after: OrderedEntry | undefined): void {
    const version = this.ctx.writingVersion;
    const mark = (parent: string, value: OrderedEntry | undefined) => {
      let changed = this.pendingOrder.get(parent);
      if (changed === undefined) {
        changed = new Map();
        this.pendingOrder.set(parent, changed);
      }
      changed.set(id, { value, version });
    };
    if (before !== undefined && before.parent !== after?.parent) mark(before.parent, undefined);
    if (after !== undefined) mark(after.parent, after);
  }

  /**
   * Children of `parent` in the table's ordered index, in value order (ordered-index.ts); undefined when
   * the table has none, the store cannot read ranges backwards, or the ids need a code-unit sort.
   */
  orderedChildren(parent: string, walk: OrderedWalk): OrderedStep[] | undefined {
    const order = this.def.order;
    const reader = this.ctx.reader;
    if (order === undefined || reader.range === undefined) return undefined;
    const prefix = indexParentPrefix(this.def.tag, order.index, parent);
    return walkOrdered(reader as RangeReader, prefix, this.pendingOrder.get(parent), walk);
  }

  /** The store holds every write of versions up to `version`: their pending copies are dropped. */
  durable(version: number): void {
    for (const [k, p] of this.pendingCounts) if (p.version <= version) this.pendingCounts.delete(k);
    for (const [parent, changed] of this.pendingOrder) {
      for (const [id, p] of changed) if (p.version <= version) changed.delete(id);
      if (changed.size === 0) this.pendingOrder.delete(parent);
    }
    for (const [id, p] of this.pending) if (p.version <= version) this.pending.delete(id);
    for (const [k, changed] of this.pendingLinks) {
      for (const [id, p] of changed) if (p.version <= version) changed.delete(id);
      if (changed.size === 0) this.pendingLinks.delete(k);
    }
  }

  /** Rows and index entries held until the store has them (for tests and metrics). */
  pendingCount(): number {
    let n = this.pending.size + this.pendingCounts.size;
    for (const changed of this.pendingLinks.values()) n += changed.size;
    for (const changed of this.pendingOrder.values()) n += changed.size;
    return n;
  }
}
