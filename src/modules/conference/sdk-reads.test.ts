// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToranaApiError } from '../../sdk/errors.js';
import { shieldedPool } from './sdk-reads.js';

const leaf = (i: number) => i.toString(16).padStart(64, '0');

/** A node of `count` leaves answering pages of at most `max` (400 invalid_pagination above). */
function pool(count: number, max: number, grow = 0) {
  const asked: string[] = [];
  let total = count;
  const get = async (_path: string, q: Record<string, string | number | undefined>) => {
    asked.push(`${q.offset ?? 0}+${q.limit ?? '-'}`);
    const limit = q.limit === undefined ? 100 : Number(q.limit);
    if (limit > max) throw new ToranaApiError(400, 'invalid_pagination', 'limit', {});
    const offset = Number(q.offset ?? 0);
    const leaves = Array.from({ length: Math.max(0, Math.min(total, offset + limit) - offset) }, (_, i) =>
      leaf(offset + i),
    );
    const answer = { leaves, offset, total, root: leaf(total + 1000), roots: [leaf(total + 1000)] };
    total += grow; // notes appended between two requests
    return answer;
  };
  return { get, asked };
}

describe('SDK shieldedPool: the whole tree, page by page', () => {
  it('reads every page in leaf order, fixed by the first page', async () => {
    const p = pool(1_234, 500, 7);
    const all = await shieldedPool(p.get);
    assert.equal(all.leaves.length, 1_234);
    assert.deepEqual(all.leaves.slice(498, 502), [498, 499, 500, 501].map(leaf));
    assert.equal(all.root, leaf(2_234), 'the root of the first page: exactly these leaves');
    assert.deepEqual(p.asked, ['0+500', '500+500', '1000+500']);
  });

  it("falls back to the node's page size when the cap is lower", async () => {
    const p = pool(250, 200);
    const all = await shieldedPool(p.get);
    assert.equal(all.leaves.length, 250);
    assert.deepEqual(p.asked, ['0+500', '0+-', '100+-', '200+-']);
  });

  it('an empty pool is one request', async () => {
    const p = pool(0, 500);
    assert.deepEqual((await shieldedPool(p.get)).leaves, []);
    assert.equal(p.asked.length, 1);
  });
});
