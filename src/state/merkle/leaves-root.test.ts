import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Prng } from '../../sim/prng.js';
import { toHex } from '../../util/hex.js';
import { EMPTY_SUBTREE, stateRootOf } from './hash.js';
import { LeavesRoot } from './leaves-root.js';
import { memoryTree } from './tree.js';

const utf8 = new TextEncoder();

function rows(n: number, rng: Prng): { key: Uint8Array; value: Uint8Array }[] {
  return Array.from({ length: n }, (_, i) => ({
    key: utf8.encode(`\u0002acct-${i}@d`),
    value: Uint8Array.from({ length: rng.int(1, 40) }, () => rng.int(0, 255)),
  }));
}

describe('state root from leaves', () => {
  it('is the state tree root for 0, 1, 2 and many rows, whatever order the rows come in', () => {
    const rng = new Prng(11);
    for (const n of [0, 1, 2, 3, 17, 1000]) {
      const rs = rows(n, rng);
      const tree = memoryTree();
      tree.apply(tree.prepare(rs, 1));
      const leaves = new LeavesRoot();
      for (const r of [...rs].reverse()) leaves.add(r.key, r.value);
      assert.equal(leaves.size, n);
      assert.equal(toHex(leaves.stateRoot()), toHex(tree.stateRoot()), `${n} rows`);
    }
    assert.equal(toHex(new LeavesRoot().stateRoot()), toHex(stateRootOf(EMPTY_SUBTREE)));
  });

  it('changes when one value changes or one row is missing', () => {
    const rs = rows(200, new Prng(3));
    const root = (list: typeof rs) => {
      const l = new LeavesRoot();
      for (const r of list) l.add(r.key, r.value);
      return toHex(l.stateRoot());
    };
    const base = root(rs);
    const changed = rs.map((r, i) => (i === 50 ? { key: r.key, value: Uint8Array.of(...r.value, 1) } : r));
    assert.notEqual(root(changed), base);
    assert.notEqual(root(rs.slice(1)), base);
  });
});
