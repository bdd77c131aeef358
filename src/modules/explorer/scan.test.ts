import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChainReader } from '../../gateway/ports.js';
import type { Block } from '../../model/block.js';
import { BLOCK_SCAN_UNITS, ITEM_SCAN_UNITS, scanNewestFirst, transactionPlaces } from './scan.js';

/** A chain of `height` blocks with `perBlock` transactions each (only what the scan looks at). */
function chain(height: number, perBlock: number): ChainReader {
  const block = (h: number) =>
    ({
      header: { height: h },
      transactions: Array.from({ length: perBlock }, () => ({})),
    }) as unknown as Block;
  return {
    height: () => height,
    tipHash: () => new Uint8Array(32),
    tipTimeMs: () => 0,
    block: async (h) => (h >= 1 && h <= height ? block(h) : undefined),
    locate: () => undefined,
    accountTransactions: async () => ({ total: 0, items: [] }),
  };
}

const spec = (from: number, offset: number, limit: number) => ({
  from,
  to: 1,
  offset,
  limit,
  places: transactionPlaces,
  keep: () => true,
  build: (b: Block, p: { tx: number }) => `${b.header.height}:${p.tx}`,
});

describe('scanNewestFirst (explorer lists without an index)', () => {
  it('pages newest first and counts every match', async () => {
    const r = await scanNewestFirst(chain(3, 2), spec(3, 1, 3), 1e9);
    assert.deepEqual(r, { items: ['3:0', '2:1', '2:0'], total: 6 });
  });

  it('stops with 422 query_budget_exceeded once the work budget is spent', async () => {
    const perBlock = BLOCK_SCAN_UNITS + 2 * ITEM_SCAN_UNITS;
    await assert.rejects(scanNewestFirst(chain(10, 2), spec(10, 0, 1), perBlock * 5), (e: unknown) => {
      const err = e as { code: string; details: { stopped_at_height: number } };
      assert.equal(err.code, 'query_budget_exceeded');
      assert.equal(err.details.stopped_at_height, 5);
      return true;
    });
    assert.equal((await scanNewestFirst(chain(5, 2), spec(5, 0, 1), perBlock * 5)).total, 10);
  });
});
