import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hash } from '../../../crypto/hash.js';
import { bytesEqual } from '../../../util/hex.js';
import { merkleProof, merkleRoot, verifyMerkleProof } from './merkle.js';

const leaf = (i: number) => new Uint8Array(32).fill(i + 1);
const leaves = (n: number) => Array.from({ length: n }, (_, i) => leaf(i));
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const L = (d: Uint8Array) => hash(cat(new Uint8Array([0]), d));
const N = (a: Uint8Array, b: Uint8Array) => hash(cat(new Uint8Array([1]), a, b));

describe('RFC 6962 Merkle tree', () => {
  it('hashes by hand for 0, 1 and 3 leaves (split at the largest power of two below n)', () => {
    assert.ok(bytesEqual(merkleRoot([]), hash(new Uint8Array(0))));
    assert.ok(bytesEqual(merkleRoot([leaf(0)]), L(leaf(0))));
    const three = N(N(L(leaf(0)), L(leaf(1))), L(leaf(2)));
    assert.ok(bytesEqual(merkleRoot(leaves(3)), three));
    assert.deepEqual(merkleProof(2, leaves(3)), [N(L(leaf(0)), L(leaf(1)))]);
  });

  it('every proof of every tree size up to 33 verifies; another leaf, index or root does not', () => {
    for (let n = 1; n <= 33; n++) {
      const ls = leaves(n);
      const root = merkleRoot(ls);
      for (let i = 0; i < n; i++) {
        const proof = merkleProof(i, ls);
        assert.ok(verifyMerkleProof(ls[i]!, i, n, proof, root), `n=${n} i=${i}`);
        assert.equal(verifyMerkleProof(leaf(99), i, n, proof, root), false);
        if (n > 1) assert.equal(verifyMerkleProof(ls[i]!, (i + 1) % n, n, proof, root), false);
        assert.equal(verifyMerkleProof(ls[i]!, i, n, proof, merkleRoot([...ls, leaf(50)])), false);
      }
    }
  });

  it('a leaf never passes for an inner node (domain separation)', () => {
    const ls = leaves(4);
    const inner = N(L(ls[0]!), L(ls[1]!));
    assert.equal(verifyMerkleProof(inner, 0, 2, [N(L(ls[2]!), L(ls[3]!))], merkleRoot(ls)), false);
  });

  it('refuses out-of-range indexes', () => {
    assert.deepEqual(merkleProof(3, leaves(3)), []);
    assert.equal(verifyMerkleProof(leaf(0), 3, 3, [], merkleRoot(leaves(3))), false);
    assert.equal(verifyMerkleProof(leaf(0), -1, 3, [], merkleRoot(leaves(3))), false);
  });
});
