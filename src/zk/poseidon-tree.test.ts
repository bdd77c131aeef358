import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  emptyFrontier,
  type Frontier,
  frontierAppend,
  merkleRoot,
  PoseidonTree,
  poseidon2,
  rootFromPath,
  zeroHashes,
} from './poseidon-tree.js';

describe('Poseidon Merkle trees', () => {
  it('Poseidon matches circomlib (the published poseidon([1, 2]) vector)', () => {
    assert.equal(
      poseidon2([1n, 2n]),
      7853200120776062878684798364095072458815029376092732009249414926327459813530n,
    );
  });

  it('an empty tree has the zero-hash root; leaves change it deterministically', () => {
    assert.equal(new PoseidonTree(4).root(), zeroHashes(4)[4]);
    assert.equal(merkleRoot(4, [1n, 2n, 3n]), merkleRoot(4, [1n, 2n, 3n]));
    assert.notEqual(merkleRoot(4, [1n, 2n, 3n]), merkleRoot(4, [1n, 3n, 2n]));
    // Two leaves at depth 1: the root is H(l0, l1).
    assert.equal(merkleRoot(1, [5n, 6n]), poseidon2([5n, 6n]));
  });

  it('every path recomputes the root', () => {
    const leaves = Array.from({ length: 11 }, (_, i) => BigInt(i * 7 + 1));
    const tree = new PoseidonTree(5, leaves);
    for (let i = 0; i < leaves.length; i++) {
      assert.equal(rootFromPath(leaves[i]!, tree.path(i)), tree.root());
    }
    assert.notEqual(rootFromPath(999n, tree.path(3)), tree.root());
  });

  it('the frontier gives the same roots as the full tree, and refuses a full tree', () => {
    const depth = 3;
    const tree = new PoseidonTree(depth);
    let f: Frontier | undefined = emptyFrontier(depth);
    assert.equal(f.root, tree.root());
    for (let i = 0; i < 8; i++) {
      tree.insert(BigInt(i + 100));
      f = frontierAppend(f!, BigInt(i + 100));
      assert.equal(f?.root, tree.root());
    }
    assert.equal(frontierAppend(f!, 1n), undefined);
    assert.throws(() => tree.insert(1n));
  });
});
