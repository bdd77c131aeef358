import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../../util/hex.js';
import { EMPTY_SUBTREE, stateRootOf } from './hash.js';
import { LeavesRoot } from './leaves-root.js';
import { memoryTree } from './tree.js';

const utf8 = new TextEncoder();

/** A small deterministic generator (xorshift32): values of 1 to 40 bytes. */
class Gen {
  constructor(private s: number) {}
  int(lo: number, hi: number): number {
    this.s ^= this.s << 13;
    this.s ^= this.s >>> 17;
    this.s ^= this.s << 5;
    return lo + ((this.s >>> 0) % (hi - lo + 1));
  }
}

function rows(n: number, rng: Gen): { key: Uint8Array; value: Uint8Array }[] {
  return Array.from({ length: n }, (_, i) => ({
    key: utf8.encode(`\u0002acct-${i}@d`),
    value: Uint8Array.from({ length: rng.int(1, 40) }, () => rng.int(0, 255)),
  }));
}

describe('state root from leaves', () => {
  it('is the state tree root for 0, 1, 2 and many rows, whatever order the rows come in', () => {
    const rng = new Gen(11);
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
    const rs = rows(200, new Gen(3));
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
