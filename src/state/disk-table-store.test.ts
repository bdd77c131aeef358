import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { varuint } from '../codec/primitives.js';
import { compareBytes, toHex } from '../util/hex.js';
import { DiskTableStore, RowCache, type StoreReader } from './disk-table-store.js';
import { iterableSource } from './query-sources.js';
import { StoreWriteLog } from './store-writes.js';
import { BaseTable, SORTED_CHILDREN_CACHE_MIN } from './table.js';
import { type TableDef, tableDef } from './tables.js';
import type { WorldState } from './world-state.js';

/** A state store in a sorted map: what the writes of durable versions left. */
class FakeStore implements StoreReader {
  readonly map = new Map<string, { key: Uint8Array; value: Uint8Array }>();
  gets = 0;
  /** Entries handed out by entries() (what a range read cost). */
  read = 0;
  get(key: Uint8Array): Uint8Array | undefined {
    this.gets++;
    return this.map.get(toHex(key))?.value;
  }
  *entries(prefix: Uint8Array): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    const all = [...this.map.values()].sort((a, b) => compareBytes(a.key, b.key));
    for (const e of all)
      if (e.key.length >= prefix.length && compareBytes(e.key.subarray(0, prefix.length), prefix) === 0) {
        this.read++;
        yield e;
      }
  }
  write(writes: readonly { key: Uint8Array; value: Uint8Array | undefined }[]): void {
    for (const w of writes) {
      if (w.value === undefined) this.map.delete(toHex(w.key));
      else this.map.set(toHex(w.key), { key: w.key, value: w.value });
    }
  }
}

// A table of numbers whose index links each row to the parity of its value ('even' / 'odd').
const DEF = tableDef('nullifier', varuint as never, {
  links: (_id, v: number) => [['aliasByIndex', v % 2 === 0 ? 'even' : 'odd']],
}) as TableDef<number>;
// The same with the parity index counted (as a definition's holders are).
const COUNTED = tableDef('nullifier', varuint as never, {
  links: (_id, v: number) => [['aliasByIndex', v % 2 === 0 ? 'even' : 'odd']],
  counted: ['aliasByIndex'],
}) as TableDef<number>;

function tables(store: FakeStore, cacheRows: number, def: TableDef<number> = DEF) {
  const ctx = { reader: store, cache: new RowCache(cacheRows), writingVersion: 1 };
  const disk = new BaseTable(def, new DiskTableStore<number>(def, ctx, 0));
  const log = new StoreWriteLog();
  disk.log = log;
  /** Rows and index entries of a version, as the ledger hands them to the store. */
  const flush = (): void => {
    const rows = [...changed].map((id) => {
      const v = disk.get(id);
      return { key: disk.key(id), value: v === undefined ? undefined : disk.encodeValue(v) };
    });
    changed.clear();
    store.write([...rows, ...log.take([disk as BaseTable<unknown>], 0n)]);
    (disk.store as DiskTableStore<number>).durable(ctx.writingVersion);
    ctx.writingVersion++;
  };
  const changed = new Set<string>();
  const put = (id: string, v: number) => {
    disk.put(id, v);
    heap.put(id, v);
    changed.add(id);
  };
  const remove = (id: string) => {
    disk.remove(id);
    heap.remove(id);
    changed.add(id);
  };
  const heap = new BaseTable(def);
  return { disk, heap, ctx, put, remove, flush };
}

describe('a table in the state store', () => {
  it('reads like the heap table before and after its writes are durable, ids in code-unit order', () => {
    const store = new FakeStore();
    const t = tables(store, 4);
    // U+FF01 sorts after U+1F600 by code unit, before it by UTF-8 bytes.
    const ids = ['\u{1F600}', '\uFF01', 'a', 'b', 'c', 'z'];
    for (const [i, id] of ids.entries()) t.put(id, i);
    const same = () => {
      assert.deepEqual(t.disk.sortedIds(), t.heap.sortedIds());
      for (const parent of ['even', 'odd'])
        assert.deepEqual(
          t.disk.sortedChildIds('aliasByIndex', parent),
          t.heap.sortedChildIds('aliasByIndex', parent),
        );
      for (const id of [...ids, 'missing']) assert.equal(t.disk.get(id), t.heap.get(id));
      assert.equal(t.disk.size, t.heap.size);
    };
    same();
    assert.deepEqual(t.disk.sortedIds(), ['a', 'b', 'c', 'z', '\u{1F600}', '\uFF01']);
    t.flush();
    same();
    // A row moves between index entries, another leaves; seen pending, then durable.
    t.put('a', 1);
    t.remove('b');
    same();
    t.flush();
    same();
    assert.equal(t.disk.size, 5);
  });

  it('keeps at most its bound of decoded rows, reading the rest from the store', () => {
    const store = new FakeStore();
    const t = tables(store, 3);
    for (let i = 0; i < 50; i++) t.put(`r${i}`, i);
    t.flush();
    assert.ok(t.ctx.cache.size <= 3);
    const before = store.gets;
    for (let i = 0; i < 50; i++) assert.equal(t.disk.get(`r${i}`), i);
    assert.ok(store.gets - before >= 47, 'evicted rows are read from the store');
    assert.equal(t.ctx.cache.size, 3);
    assert.deepEqual(
      t.disk.sortedChildIds('aliasByIndex', 'odd'),
      t.heap.sortedChildIds('aliasByIndex', 'odd'),
    );
  });

  it('reads a missing row from the store once, and sees it once a block writes it', () => {
    const store = new FakeStore();
    const t = tables(store, 8);
    t.put('a', 1);
    t.flush();
    const before = store.gets;
    for (let i = 0; i < 5; i++) assert.equal(t.disk.get('missing'), undefined);
    assert.equal(store.gets - before, 1, 'the miss is remembered');
    t.put('missing', 7);
    assert.equal(t.disk.get('missing'), 7, 'pending');
    t.flush();
    assert.equal(t.disk.get('missing'), 7, 'durable');
    t.remove('missing');
    t.flush();
    assert.equal(t.disk.get('missing'), undefined, 'removed');
    assert.equal(t.disk.get('missing'), t.heap.get('missing'));
  });

  it('evicts the least recently used row of all tables, a row read in the older half moved to the end', () => {
    const cache = new RowCache(4);
    cache.set(1, 'a', 'A');
    cache.set(2, 'b', 'B');
    cache.set(1, 'c', 'C');
    cache.set(2, 'd', 'D');
    // 'a' is in the older half: the read keeps it; 'b' (table 2) is then the oldest.
    assert.equal(cache.get(1, 'a'), 'A');
    cache.set(3, 'e', 'E');
    assert.equal(cache.size, 4);
    assert.equal(cache.get(2, 'b'), undefined);
    assert.equal(cache.get(1, 'a'), 'A');
    cache.set(3, 'f', 'F');
    assert.equal(cache.get(1, 'c'), undefined, 'the oldest of all tables goes first');
    assert.deepEqual(
      ['a', 'd', 'e', 'f'].map((id, i) => cache.get([1, 2, 3, 3][i]!, id)),
      ['A', 'D', 'E', 'F'],
    );
    cache.delete(3, 'f');
    assert.equal(cache.size, 3);
  });

  it('keeps the sorted children of a large index entry until it changes, within the row bound', () => {
    const t = tables(new FakeStore(), 2048);
    for (let i = 0; i < 2 * SORTED_CHILDREN_CACHE_MIN; i += 2) t.put(`r${i}`, i);
    t.flush();
    const first = t.disk.sortedChildIds('aliasByIndex', 'even');
    assert.equal(t.disk.sortedChildIds('aliasByIndex', 'even'), first, 'kept while unchanged');
    t.put('new', 0);
    const next = t.disk.sortedChildIds('aliasByIndex', 'even');
    assert.notEqual(next, first);
    assert.deepEqual(next, t.heap.sortedChildIds('aliasByIndex', 'even'));
    // Over the bound (more ids than the row cache holds rows): read from the store each time.
    const small = tables(new FakeStore(), 16);
    for (let i = 0; i < 2 * SORTED_CHILDREN_CACHE_MIN; i += 2) small.put(`r${i}`, i);
    small.flush();
    const a = small.disk.sortedChildIds('aliasByIndex', 'even');
    assert.notEqual(small.disk.sortedChildIds('aliasByIndex', 'even'), a);
    assert.deepEqual(small.disk.sortedChildIds('aliasByIndex', 'even'), a);
  });

  it('gives the first ids in code-unit order from the start of its range, pending rows merged in', () => {
    const store = new FakeStore();
    const t = tables(store, 8);
    for (let i = 0; i < 300; i++) t.put(`r${String(i).padStart(3, '0')}`, i);
    t.flush();
    // Not durable yet: a new first row, a removed one, a changed one.
    t.put('a-new', 1);
    t.remove('r001');
    t.put('r002', 7);
    for (const n of [0, 1, 2, 5, 10, 299, 300, 301, 400]) {
      store.read = 0;
      const first = t.disk.firstIds(n);
      assert.deepEqual(first, t.heap.sortedIds().slice(0, n), `first ${n}`);
      assert.ok(store.read <= n + 2, `first ${n}: ${store.read} entries read`);
    }
    t.flush();
    assert.deepEqual(t.disk.firstIds(3), ['a-new', 'r000', 'r002']);
    // U+FF01 comes before U+1F600 in bytes, after it in code units: such a prefix is not answered.
    t.put('\uFF01', 1);
    t.put('\u{1F600}', 2);
    assert.equal(t.disk.firstIds(1000), undefined);
    t.flush();
    assert.equal(t.disk.firstIds(1000), undefined);
    assert.deepEqual(t.disk.firstIds(2), ['a-new', 'r000'], 'a prefix without them still is');
  });

  it('a limit-10 list of a large table reads 10 ids from the store, not every id', () => {
    const store = new FakeStore();
    const t = tables(store, 8);
    for (let i = 0; i < 5000; i++) t.put(`acct-${String(i).padStart(5, '0')}`, i);
    t.flush();
    const state = { tables: { account: t.disk } } as unknown as WorldState;
    store.read = 0;
    const source = iterableSource(state, { kind: 'FindAccounts' }, undefined as never);
    assert.ok(!('code' in source));
    assert.equal(source.count, 5000);
    const page = source.slice(0, 10).map((item) => item.tie);
    assert.deepEqual(page, t.heap.sortedIds().slice(0, 10));
    assert.ok(store.read <= 10, `${store.read} store entries read for a page of 10`);
    // A scan past FIRST_IDS_READ_MAX takes the whole sorted list once.
    const all = [];
    for (let from = 0; from < source.count; from += 256) all.push(...source.slice(from, from + 256));
    assert.deepEqual(
      all.map((item) => item.tie),
      t.heap.sortedIds(),
    );
  });

  it("a holders query counts from the definition's holder count and pages by its first ids, not every id", () => {
    const store = new FakeStore();
    const t = tables(store, 8, COUNTED);
    for (let i = 0; i < 6000; i++) t.put(`h${String(i).padStart(5, '0')}`, i);
    t.flush();
    // The asset table's holder reads as world-state.ts gives them, over the counted parity index.
    let listed = 0;
    const state = {
      tables: { asset: t.disk, assetDefinition: { get: () => ({}) } },
      holderCount: (d: string) => t.disk.childCount('aliasByIndex', d),
      firstHolderIds: (d: string, n: number) => t.disk.firstChildIds('aliasByIndex', d, n),
      holderIds: (d: string) => {
        listed++;
        return t.disk.sortedChildIds('aliasByIndex', d);
      },
      linkedIds: (_table: string, _index: string, d: string) => {
        listed++;
        return t.disk.sortedChildIds('aliasByIndex', d);
      },
    } as unknown as WorldState;
    const expected = t.heap.sortedChildIds('aliasByIndex', 'even');
    store.read = 0;
    store.gets = 0;
    const source = iterableSource(
      state,
      { kind: 'FindHoldersOfDefinition', definition: 'even' },
      undefined as never,
    );
    assert.ok(!('code' in source));
    assert.equal(source.count, 3000);
    assert.deepEqual(
      source.slice(20, 30).map((item) => item.tie),
      expected.slice(20, 30),
    );
    assert.equal(listed, 0, 'no holder id list');
    assert.ok(
      store.read <= 31,
      `${store.read} index entries read for the count and a page of 10 at offset 20`,
    );
    // A scan past FIRST_IDS_READ_MAX takes the whole sorted list once.
    const all = [];
    for (let from = 0; from < source.count; from += 256) all.push(...source.slice(from, from + 256));
    assert.deepEqual(
      all.map((item) => item.tie),
      expected,
    );
    assert.equal(listed, 1, 'listed once');
  });

  it('keeps the child count of each parent of a counted index, read in one get, equal to a scan', () => {
    const store = new FakeStore();
    const t = tables(store, 8, COUNTED);
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const check = () => {
      for (const parent of ['even', 'odd', 'none']) {
        const scanned = t.heap.sortedChildIds('aliasByIndex', parent).length;
        assert.equal(t.disk.childCount('aliasByIndex', parent), scanned, `${parent}: count`);
        assert.equal(t.heap.childCount('aliasByIndex', parent), scanned);
      }
    };
    // Rows created, moved between parents (a value of other parity), and removed (a parent emptied).
    for (let block = 0; block < 40; block++) {
      for (let w = 0; w < 25; w++) {
        const id = `r${random(60)}`;
        const op = random(4);
        if (op === 0 && t.heap.get(id) !== undefined) t.remove(id);
        else t.put(id, random(block < 20 ? 1000 : 2) * (block % 10 === 9 ? 2 : 1));
      }
      check();
      t.flush();
      check();
    }
    // Read back from the store alone (a table opened on it): one get per count, no range read.
    const reopened = new DiskTableStore<number>(
      COUNTED,
      { reader: store, cache: new RowCache(8), writingVersion: 100 },
      t.heap.size,
    );
    for (const parent of ['even', 'odd']) {
      store.gets = 0;
      store.read = 0;
      assert.equal(
        reopened.childCount('aliasByIndex', parent),
        t.heap.sortedChildIds('aliasByIndex', parent).length,
      );
      assert.equal(store.gets, 1, 'one get');
      assert.equal(store.read, 0, 'no range read');
    }
    // A parent emptied has no count stored.
    for (const id of t.heap.sortedIds()) t.remove(id);
    t.flush();
    assert.equal(t.disk.childCount('aliasByIndex', 'even'), 0);
    assert.equal(
      [...store.map.values()].filter((e) => e.key[0] === 0xf9 && e.key[1] === 0x00 && e.key.length > 3)
        .length,
      0,
      'no count of an empty parent is kept',
    );
  });

  it('gives the first children of a parent reading only them, pending changes merged in', () => {
    const store = new FakeStore();
    const t = tables(store, 8, COUNTED);
    for (let i = 0; i < 2000; i += 2) t.put(`h${String(i).padStart(5, '0')}`, i);
    t.flush();
    t.put('a-first', 4);
    t.remove('h00002');
    for (const n of [0, 1, 5, 10, 1000, 1001]) {
      store.read = 0;
      assert.deepEqual(
        t.disk.firstChildIds('aliasByIndex', 'even', n),
        t.heap.sortedChildIds('aliasByIndex', 'even').slice(0, n),
        `first ${n}`,
      );
      assert.ok(store.read <= n + 1, `first ${n}: ${store.read} entries read`);
    }
    t.put('\uFF01', 2);
    assert.equal(t.disk.firstChildIds('aliasByIndex', 'even', 5), undefined);
  });
});
