import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hash } from '../crypto/hash.js';
import { BLOCK_MERKLE, merkleNode } from '../crypto/merkle.js';
import { blockMerklePath, merkleRoot, verifyBlockMerklePath } from './block.js';

const leaves = (n: number) => Array.from({ length: n }, (_, i) => hash(Uint8Array.of(i, n)));

describe('block Merkle paths (transactionsRoot / resultsRoot inclusion)', () => {
  it('every leaf of every size up to 17 verifies against merkleRoot, and nothing else does', () => {
    for (let n = 1; n <= 17; n++) {
      const ls = leaves(n);
      const root = merkleRoot(ls);
      for (let i = 0; i < n; i++) {
        const path = blockMerklePath(i, ls);
        assert.ok(verifyBlockMerklePath(ls[i]!, i, n, path, root), `n=${n} i=${i}`);
        // Another leaf, another index, a changed sibling: refused.
        assert.ok(!verifyBlockMerklePath(ls[(i + 1) % n]!, i, n, path, root) || n === 1);
        if (n > 1)
          assert.ok(!verifyBlockMerklePath(ls[i]!, (i + 1) % n, n, path, root), `index n=${n} i=${i}`);
        if (path.length > 0) {
          const bad = path.map((p) => p.slice());
          bad[0]![0]! ^= 1;
          assert.ok(!verifyBlockMerklePath(ls[i]!, i, n, bad, root));
        }
      }
    }
  });

  it('an inner node cannot pass for a leaf when the count comes from the header', () => {
    const ls = leaves(4);
    const root = merkleRoot(ls);
    const inner = merkleNode(BLOCK_MERKLE, ls[0]!, ls[1]!);
    const right = merkleNode(BLOCK_MERKLE, ls[2]!, ls[3]!);
    // As a two-leaf tree it would verify; with the header's count of 4 it does not.
    assert.ok(verifyBlockMerklePath(inner, 0, 2, [right], root));
    assert.ok(!verifyBlockMerklePath(inner, 0, 4, [right], root));
    assert.ok(!verifyBlockMerklePath(inner, 0, 4, [right, right], root));
  });

  it('out-of-range indexes give no path and never verify', () => {
    const ls = leaves(3);
    assert.deepEqual(blockMerklePath(3, ls), []);
    assert.ok(!verifyBlockMerklePath(ls[0]!, -1, 3, [], merkleRoot(ls)));
    assert.ok(!verifyBlockMerklePath(ls[0]!, 0, 0, [], merkleRoot(ls)));
  });
});
