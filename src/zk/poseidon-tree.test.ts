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

  it('appends give the roots of the full computation, byte for byte (random leaves, pool depth)', () => {
    let seed = 7n;
    const random = () => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return seed * 0x1234567n; // well inside the field
    };
    const depth = 16;
    const leaves: bigint[] = [];
    let f = emptyFrontier(depth);
    const tree = new PoseidonTree(depth);
    assert.equal(f.root, fullRoot(depth, leaves));
    for (let i = 0; i < 66; i++) {
      const leaf = random();
      leaves.push(leaf);
      f = frontierAppend(f, leaf)!;
      tree.insert(leaf);
      if (i < 20 || i % 8 === 0) assert.equal(f.root, fullRoot(depth, leaves), `append ${i}`);
      assert.equal(tree.root(), f.root);
    }
    assert.equal(new PoseidonTree(depth, leaves).root(), f.root, 'the bulk build agrees');
    const bulk = new PoseidonTree(depth, leaves);
    for (const i of [0, 1, 32, 64, 65]) assert.equal(rootFromPath(leaves[i]!, bulk.path(i)), f.root);
  });

  it('a small tree filled to capacity agrees with the full computation at every append', () => {
    const depth = 4;
    const leaves: bigint[] = [];
    let f: Frontier | undefined = emptyFrontier(depth);
    for (let i = 0; i < 16; i++) {
      leaves.push(BigInt(i * i + 3));
      f = frontierAppend(f!, leaves[i]!);
      assert.equal(f?.root, fullRoot(depth, leaves));
    }
    assert.equal(frontierAppend(f!, 1n), undefined);
  });

  it('the pool root of a known sequence is the one the chain has always stored', () => {
    let f = emptyFrontier(16);
    for (let i = 1n; i <= 5n; i++) f = frontierAppend(f, i * 1000003n)!;
    assert.equal(f.root.toString(16), '3016b6c6955bedd239f76a6b2288062cf9f202ffc011b25fcab438b09978ac33');
  });
});

/** The reference: every node of the tree from its definition (empty subtrees hashed here, not cached). */
function fullRoot(depth: number, leaves: readonly bigint[]): bigint {
  let level = [...leaves];
  let zero = 0n;
  for (let d = 0; d < depth; d++) {
    const up: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(poseidon2([level[i]!, level[i + 1] ?? zero]));
    zero = poseidon2([zero, zero]);
    level = up;
  }
  return level[0] ?? zero;
}
