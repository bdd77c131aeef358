import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareBytes, toHex } from '../../util/hex.js';
import { keyHash, valueHash } from './hash.js';
import { verifyStateProof } from './proof.js';
import { buildSortedTree, SortedBuildError, type SortedLeaf } from './sorted-build.js';
import { MemoryNodeStore, memoryTree, StateTree } from './tree.js';

const utf8 = new TextEncoder();

function rows(n: number): { key: Uint8Array; value: Uint8Array }[] {
  return Array.from({ length: n }, (_, i) => ({
    key: utf8.encode(`\u0002acct-${i}@d`),
    value: utf8.encode(`v${i * 7919}`),
  }));
}

function sortedLeaves(rs: readonly { key: Uint8Array; value: Uint8Array }[]): SortedLeaf[] {
  return rs
    .map((r) => ({ kh: keyHash(r.key), valueHash: valueHash(r.value) }))
    .sort((a, b) => compareBytes(a.kh, b.kh));
}

describe('sorted (bulk) state tree build', () => {
  it('writes exactly the nodes, root record and root of one tree update over the same rows', () => {
    for (const n of [0, 1, 2, 3, 5, 64, 2000]) {
      const rs = rows(n);
      const tree = memoryTree();
      const update = tree.prepare(rs, 0);
      const expected = new Map(update.writes.map((w) => [toHex(w.key), toHex(w.value!)]));
      const got = new Map<string, string>();
      const r = buildSortedTree(sortedLeaves(rs), 0, (k, v) => {
        assert.ok(!got.has(toHex(k)), `${n} rows: node ${toHex(k)} written twice`);
        got.set(toHex(k), toHex(v));
      });
      assert.equal(r.leaves, n);
      assert.equal(r.writes, got.size);
      assert.deepEqual(got, expected, `${n} rows`);
      assert.equal(toHex(r.stateRoot), toHex(update.stateRoot), `${n} rows`);
    }
  });

  it('copies what it keeps of a leaf: leaves given as views of one reused buffer build the same tree', () => {
    // The leaf sort's merge hands out views of its read windows, valid until the next leaf.
    const leaves = sortedLeaves(rows(300));
    const want = new Map<string, string>();
    buildSortedTree(leaves, 0, (k, v) => want.set(toHex(k), toHex(v)));
    const shared = new Uint8Array(64);
    const view: SortedLeaf = { kh: shared.subarray(0, 32), valueHash: shared.subarray(32) };
    function* reused(): Generator<SortedLeaf> {
      for (const l of leaves) {
        shared.set(l.kh, 0);
        shared.set(l.valueHash, 32);
        yield view;
      }
    }
    const got = new Map<string, string>();
    buildSortedTree(reused(), 0, (k, v) => got.set(toHex(k), toHex(v)));
    assert.deepEqual(got, want);
  });

  it('gives a stored tree that proves every row and takes later updates like any other', () => {
    const rs = rows(500);
    const store = new MemoryNodeStore();
    const writes: { key: Uint8Array; value: Uint8Array }[] = [];
    buildSortedTree(sortedLeaves(rs), 3, (key, value) => writes.push({ key, value }));
    store.put(writes);
    const built = StateTree.open(store, 3, { writeThrough: (w) => store.put(w) })!;
    const reference = memoryTree();
    reference.apply(reference.prepare(rs, 3));
    for (const i of [0, 1, 99, 250, 499]) {
      const p = built.prove(rs[i]!.key);
      assert.ok(verifyStateProof(built.stateRoot(), rs[i]!.key, rs[i]!.value, p));
      assert.deepEqual(p, reference.prove(rs[i]!.key));
    }
    const change = [
      { key: rs[7]!.key, value: utf8.encode('changed') },
      { key: rs[8]!.key, value: undefined },
      { key: utf8.encode('\u0002new@d'), value: utf8.encode('n') },
    ];
    built.apply(built.prepare(change, 4));
    reference.apply(reference.prepare(change, 4));
    assert.equal(toHex(built.stateRoot()), toHex(reference.stateRoot()));
  });

  it('hands out the nodes of each depth in key order, so a bulk load needs no sort of them', () => {
    /** A key hash of the given first bytes, the rest zero. */
    const kh = (...first: number[]) => {
      const h = new Uint8Array(32);
      h.set(first);
      return h;
    };
    const vh = valueHash(utf8.encode('v'));
    // A left subtree splitting deep (bit 15) beside a right one splitting shallow (bit 2): the left one's
    // chain of one-child nodes crosses the depths of the right one's leaves.
    const shapes: SortedLeaf[][] = [
      [kh(0, 0), kh(0, 1), kh(0x80), kh(0xa0)].map((h) => ({ kh: h, valueHash: vh })),
      sortedLeaves(rows(3000)),
    ];
    for (const leaves of shapes) {
      const last = new Map<number, Uint8Array>();
      let nodes = 0;
      buildSortedTree(leaves, 2, (key) => {
        if (key[1] !== 0x6e) return;
        const depth = (key[10]! << 8) | key[11]!;
        const before = last.get(depth);
        assert.ok(before === undefined || compareBytes(before, key) < 0, `depth ${depth}: ${toHex(key)}`);
        last.set(depth, key);
        nodes++;
      });
      assert.ok(nodes >= 2 * leaves.length - 1);
    }
  });

  it('refuses leaves out of order or a key hash twice', () => {
    const leaves = sortedLeaves(rows(10));
    const swapped = [...leaves];
    [swapped[3], swapped[4]] = [swapped[4]!, swapped[3]!];
    assert.throws(() => buildSortedTree(swapped, 0, () => {}), SortedBuildError);
    const twice = [...leaves.slice(0, 5), leaves[4]!, ...leaves.slice(5)];
    assert.throws(() => buildSortedTree(twice, 0, () => {}), /leaf 5 is not after leaf 4/);
  });
});
