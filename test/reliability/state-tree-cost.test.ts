// The state tree's per-block cost against the multiset root in the same run (bench/lib/tree-cost.ts):
// 100,000 rows, blocks of 1,024 changed keys. The walk visits each touched node once per block, looks
// nodes up by key string without building their key bytes, keeps decoded nodes in a two-generation cache
// and reads hashes out with one copy each; before that a block cost about 50× the multiset update here.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureTreeCost } from '../../bench/lib/tree-cost.js';

/** The bound on tree ÷ multiset per block (the hashes alone are about 5× the multiset's: see below). */
const RATIO_MAX = 25;

describe('state tree cost per block', () => {
  it(`a block of 1,024 changes at 100,000 rows costs under ${RATIO_MAX}× the multiset root's update`, () => {
    const c = measureTreeCost({ rows: 100_000, blocks: 5, rounds: 3 });
    console.log(
      `[figure] ${c.rows} rows, ${c.changes} changes: tree ${c.treeMs.toFixed(1)} ms, multiset ` +
        `${c.multisetMs.toFixed(1)} ms per block, ratio ${c.ratio.toFixed(1)}`,
    );
    assert.ok(c.ratio < RATIO_MAX, `ratio ${c.ratio.toFixed(1)} (bound ${RATIO_MAX})`);
  });
});
