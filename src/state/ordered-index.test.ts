// The ordered holder index of a state on disk: a definition's holders by balance, kept with every
// balance write, read in value order by the holder query (sort by value, value bounds, top-k, cursors)
// with the same answers as the scan of every holder, reading only the index range the page needs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { acc } from '../../test/fixtures/state/state-fixture.js';
import { numeric } from '../model/numeric.js';
import type { QueryParams, QueryResponse } from '../model/queries.js';
import { compareBytes, toHex } from '../util/hex.js';
import { CursorStore } from './cursors.js';
import type { StoreReader } from './disk-table-store.js';
import { memoryTree } from './merkle/tree.js';
import { GROUP_BUFFER_MAX } from './ordered-index.js';
import { executeQuery } from './query.js';
import { numericOrderKey, orderKeyMantissa } from './state-index-keys.js';
import type { StoreWrite } from './store-writes.js';
import { WorldState } from './world-state.js';

/** A state store in a sorted map that counts the entries its range reads hand out. */
class FakeStore implements StoreReader {
  readonly map = new Map<string, { key: Uint8Array; value: Uint8Array }>();
  read = 0;
  private order: { key: Uint8Array; value: Uint8Array }[] | undefined;
  get(key: Uint8Array): Uint8Array | undefined {
    return this.map.get(toHex(key))?.value;
  }
  private sorted(): { key: Uint8Array; value: Uint8Array }[] {
    this.order ??= [...this.map.values()].sort((a, b) => compareBytes(a.key, b.key));
    return this.order;
  }
  *entries(prefix: Uint8Array): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    for (const e of this.sorted())
      if (e.key.length >= prefix.length && compareBytes(e.key.subarray(0, prefix.length), prefix) === 0) {
        this.read++;
        yield e;
      }
  }
  *range(
    start: Uint8Array,
    end: Uint8Array,
    reverse: boolean,
  ): Iterable<{ key: Uint8Array; value: Uint8Array }> {
    const all = this.sorted();
    const at = (k: Uint8Array) => {
      let lo = 0;
      let hi = all.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareBytes(all[mid]!.key, k) < 0) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const from = at(start);
    const to = at(end);
    for (let i = 0; i < to - from; i++) {
      this.read++;
      yield all[reverse ? to - 1 - i : from + i]!;
    }
  }
  write(writes: readonly StoreWrite[]): void {
    this.order = undefined;
    for (const w of writes) {
      if (w.value === undefined) this.map.delete(toHex(w.key));
      else this.map.set(toHex(w.key), { key: w.key, value: w.value });
    }
  }
}

const GOLD = 'gold#bank';
const SILVER = 'silver#bank';

/** A state on disk over a FakeStore, with a helper that makes its writes durable as the ledger does. */
function diskState() {
  const store = new FakeStore();
  const state = WorldState.onDisk(store, {
    version: 1,
    sum: 0n,
    count: () => 0,
    cacheRows: 64,
    emptyTree: memoryTree(),
    rows: () => [],
  });
  const changed = new Map<string, string[]>();
  const put = (table: 'asset' | 'assetDefinition', id: string, row: never) => {
    state.tables[table].put(id, row);
    changed
      .set(table, changed.get(table) ?? [])
      .get(table)!
      .push(id);
  };
  const holder = (definition: string, n: number, value: string) =>
    put('asset', `${definition}#${acc(n)}`, {
      id: `${definition}#${acc(n)}`,
      value: numeric(value),
    } as never);
  const remove = (id: string) => {
    state.tables.asset.remove(id);
    changed
      .set('asset', changed.get('asset') ?? [])
      .get('asset')!
      .push(id);
  };
  const flush = () => {
    const rows: StoreWrite[] = [];
    for (const [table, ids] of changed) {
      const t = state.tables[table as 'asset'];
      for (const id of ids) {
        const v = t.get(id);
        rows.push({ key: t.key(id), value: v === undefined ? undefined : t.encodeValue(v) });
      }
    }
    changed.clear();
    store.write([...rows, ...state.takeStoreWrites()]);
    state.durable(1);
  };
  for (const id of [GOLD, SILVER])
    put('assetDefinition', id, {
      id,
      scale: 2,
      mintable: { kind: 'Infinitely' },
      totalQuantity: numeric('0'),
      ownedBy: acc(1),
      metadata: new Map(),
    } as never);
  return { store, state, holder, remove, flush };
}

/** The same state seen as one in the heap: the holder query scans every holder (the reference answer). */
function scanned(state: WorldState): WorldState {
  return new Proxy(state, { get: (t, p) => (p === 'onDisk' ? false : Reflect.get(t, p, t)) });
}

async function holders(state: WorldState, params: Partial<QueryParams>, fetchSize = 100): Promise<string[]> {
  const cursors = new CursorStore({ capacity: 4, idleExpiryMs: 60_000, now: () => 0 });
  const opts = { cursors };
  let r = (await executeQuery(
    state,
    {
      kind: 'Start',
      query: { kind: 'FindHoldersOfDefinition', definition: GOLD },
      params: { offset: 0, fetchSize, ...params },
    },
    'reader',
    opts,
  )) as QueryResponse;
  assert.equal(r.kind, 'Iterable', inspect(r));
  const out: string[] = [];
  for (;;) {
    assert.ok(r.kind === 'Iterable');
    for (const o of r.batch)
      out.push(
        `${(o.value as { id: string }).id}=${(o.value as { value: { mantissa: bigint } }).value.mantissa}`,
      );
    if (r.cursor === undefined) return out;
    r = (await executeQuery(state, { kind: 'Continue', cursor: r.cursor }, 'reader', opts)) as QueryResponse;
  }
}

describe('the ordered holder index', () => {
  // 1,200 distinct accounts' keys are made once: 5,000 holders reuse them across definitions' ids.
  it('a top-10 holders page of 5,000 holders reads about 10 index entries, with the scan answer', async () => {
    const { store, state, holder, flush } = diskState();
    for (let i = 0; i < 5000; i++) holder(GOLD, i, String(((i * 7919) % 5000) + 1));
    for (let i = 0; i < 50; i++) holder(SILVER, i, String(100_000 + i));
    flush();
    for (const sort of ['value:desc', 'value:asc']) {
      store.read = 0;
      const page = await holders(state, { sort, limit: 10 });
      const reads = store.read;
      assert.deepEqual(page, await holders(scanned(state), { sort, limit: 10 }));
      console.log(`${sort} limit 10 over 5,000 holders: ${reads} store entries read`);
      assert.ok(reads <= 20, `${reads} store entries read for a top-10 page (${sort})`);
    }
    assert.ok((await holders(state, { sort: 'value:desc', limit: 1 }))[0]!.endsWith('=5000'));
  });

  it('value bounds, offsets, ties, cursors and writes not yet durable give the scan answer', async () => {
    const { store, state, holder, remove, flush } = diskState();
    // Ties: a value held by more than a descending walk buffers, one held by a few, distinct ones.
    for (let i = 0; i < GROUP_BUFFER_MAX + 40; i++) holder(GOLD, i, '7.5');
    for (let i = 400; i < 700; i++) holder(GOLD, i, String(i % 13));
    for (let i = 700; i < 760; i++) holder(GOLD, i, `${i}.25`);
    for (let i = 0; i < 30; i++) holder(SILVER, i, '9');
    flush();
    const cases: Partial<QueryParams>[] = [
      { sort: 'value:desc', limit: 25 },
      { sort: 'value:asc', limit: 25 },
      { sort: 'value:desc', offset: 280, limit: 80 },
      { sort: 'value:asc', offset: 10, limit: 400 },
      { sort: 'value:desc' },
      { sort: 'value:desc', limit: 30, filter: { and: [{ gte: ['value', '3'] }, { lt: ['value', '7.5'] }] } },
      { sort: 'value:asc', limit: 30, filter: { gt: ['value', 7.5] } },
      { sort: 'value:desc', limit: 5, filter: { eq: ['value', '7.50'] } },
      { sort: 'value:asc', filter: { lte: ['value', '2'] } },
      { sort: 'value:desc', limit: 20, filter: { ne: ['value', '12'] } },
      { sort: 'value:desc', limit: 10, filter: { gt: ['value', '1e9'] } },
    ];
    const check = async (label: string) => {
      for (const [i, c] of cases.entries())
        for (const fetchSize of i < 4 ? [7, 100] : [100]) {
          const want = await holders(scanned(state), c, fetchSize);
          assert.deepEqual(
            await holders(state, c, fetchSize),
            want,
            `${label}: ${JSON.stringify(c)} by ${fetchSize}`,
          );
        }
    };
    await check('durable');
    store.read = 0;
    await holders(state, { sort: 'value:desc', limit: 10, filter: { lte: ['value', '5'] } });
    console.log(`value:desc limit 10, value <= 5: ${store.read} store entries read`);
    assert.ok(store.read <= 30, `a bounded page read ${store.read} entries`);
    // Balances change, holders come and go, in blocks the store does not hold yet.
    holder(GOLD, 3, '1000');
    holder(GOLD, 401, '7.5');
    holder(GOLD, 900, '0.01');
    holder(GOLD, 901, '7.5');
    remove(`${GOLD}#${acc(705)}`);
    remove(`${GOLD}#${acc(5)}`);
    await check('pending');
    flush();
    await check('durable again');
    assert.ok(!store.map.has(toHex(new Uint8Array(0))));
  });
});

describe('order keys', () => {
  it('read back as the value at a scale that holds it, and undefined at one that does not', () => {
    const values = [
      '0',
      '1',
      '0.5',
      '123.45',
      '340282366920938463463374607431768211455',
      '0.0000000000000000000000000001',
    ];
    for (const text of values) {
      const v = numeric(text);
      const key = numericOrderKey(v);
      assert.equal(orderKeyMantissa(key, v.scale), v.mantissa, text);
      assert.equal(
        orderKeyMantissa(key, v.scale + 1 <= 28 ? v.scale + 1 : 28),
        v.scale < 28 ? v.mantissa * 10n : v.mantissa,
      );
      if (v.scale > 0 && v.mantissa % 10n !== 0n)
        assert.equal(orderKeyMantissa(key, v.scale - 1), undefined, text);
    }
    // The same value at two scales has one key.
    assert.deepEqual(numericOrderKey(numeric('1.50')), numericOrderKey(numeric('1.5')));
    assert.equal(orderKeyMantissa(numericOrderKey(numeric('1.50')), 1), 15n);
  });
});
