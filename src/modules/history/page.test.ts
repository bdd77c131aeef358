// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kindsOf, kindTag } from '../../pipeline/tx-summary.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { HistoryFilter, PageRequest } from './page.js';
import { selectPage } from './page.js';
import type { HistoryEntry } from './port.js';

const transfer = kindsOf([{ kind: 'TransferAsset' } as never]);
const mint = kindsOf([{ kind: 'MintAsset' } as never]);

/** 30 entries over heights 1..15 (two per block), block time 1000 × height, every third rejected. */
function entries(): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  for (let n = 0; n < 30; n++) {
    const height = 1 + Math.floor(n / 2);
    out.push({
      height,
      index: n % 2,
      hash: new Uint8Array(32).fill(n),
      summary: { ok: n % 3 !== 0, blockTimeMs: 1000 * height, kinds: n % 2 === 0 ? transfer : mint },
    });
  }
  return out;
}

const all: HistoryFilter = { status: 'all' };
const ns = (p: { items: HistoryEntry[] }) => p.items.map((e) => e.hash[0]);
const page = (r: Partial<PageRequest>, list = entries()) =>
  selectPage(list, { filter: all, limit: 5, offset: 0, ...r }, 1000);

describe('history page selection', () => {
  it('answers newest first with the total, offset and a cursor to the next page', async () => {
    const p = await page({});
    assert.equal(p.total, 30);
    assert.deepEqual(ns(p), [29, 28, 27, 26, 25]);
    assert.deepEqual(p.next, { height: 13, index: 1 });
    assert.deepEqual(ns(await page({ offset: 27 })), [2, 1, 0]);
    assert.equal((await page({ offset: 27 })).next, undefined);
    assert.deepEqual(ns(await page({ offset: 40 })), []);
  });

  it('walks every entry exactly once by cursor, also when newer entries arrive meanwhile', async () => {
    const list = entries();
    const seen: number[] = [];
    let cursor: PageRequest['cursor'];
    for (let round = 0; round < 20; round++) {
      const p = await page({ limit: 4, ...(cursor === undefined ? {} : { cursor }) }, list);
      seen.push(...ns(p).map(Number));
      // A newer block commits between pages: it never shows up in the walk that started before it.
      list.push({ ...list.at(-1)!, height: 100 + round, index: 0, hash: new Uint8Array(32).fill(200) });
      if (p.next === undefined) break;
      cursor = decodeCursor(encodeCursor(p.next));
    }
    assert.deepEqual(seen, [...Array(30).keys()].reverse());
  });

  it('filters by status, block time and kind, counting only what passes', async () => {
    const rejected = await page({ filter: { status: 'rejected' }, limit: 100 });
    assert.deepEqual(ns(rejected), [27, 24, 21, 18, 15, 12, 9, 6, 3, 0]);
    assert.equal((await page({ filter: { status: 'ok' } })).total, 20);
    const window = await page({ filter: { status: 'all', fromMs: 3000, toMs: 4000 }, limit: 100 });
    assert.deepEqual(ns(window), [7, 6, 5, 4]);
    const mints = await page({ filter: { status: 'all', kindTag: kindTag('MintAsset')! }, limit: 3 });
    assert.equal(mints.total, 15);
    assert.deepEqual(ns(mints), [29, 27, 25]);
  });

  it('stops reading at the first entry after to_ms, and refuses to read beyond scanMax', async () => {
    let read = 0;
    function* counted() {
      for (const e of entries()) {
        read++;
        yield e;
      }
    }
    await selectPage(counted(), { filter: { status: 'all', toMs: 2000 }, limit: 5, offset: 0 }, 1000);
    assert.equal(read, 5);
    await assert.rejects(
      () => selectPage(entries(), { filter: all, limit: 5, offset: 0 }, 29),
      (e: { code?: string }) => e.code === 'query_budget_exceeded',
    );
  });

  it('lists entries without a summary only when nothing is filtered', async () => {
    const legacy = entries().map((e) => ({ ...e, summary: undefined }));
    assert.equal((await page({}, legacy)).total, 30);
    assert.equal((await page({ filter: { status: 'ok' } }, legacy)).total, 0);
  });

  it('keeps only what the visibility check lets through', async () => {
    const p = await selectPage(entries(), { filter: all, limit: 3, offset: 0 }, 1000, (e) => e.index === 0);
    assert.equal(p.total, 15);
    assert.deepEqual(ns(p), [28, 26, 24]);
  });

  it('refuses cursors it did not make', () => {
    for (const bad of ['', 'xyz', encodeCursor({ height: 1, index: 0 }).slice(1), 'aDBpMA', '!!'])
      assert.throws(
        () => decodeCursor(bad),
        (e: { code?: string }) => e.code === 'invalid_pagination',
      );
    assert.deepEqual(decodeCursor(encodeCursor({ height: 12345, index: 7 })), { height: 12345, index: 7 });
  });
});
