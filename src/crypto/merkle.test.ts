import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hash } from './hash.js';
import {
  BLOCK_MERKLE,
  type MerkleDomain,
  merkleNode,
  merkleProof,
  merkleRoot,
  RFC6962_MERKLE,
  verifyMerkleProof,
} from './merkle.js';

const leaf = (i: number) => hash(new Uint8Array([i]));
const leaves = (n: number) => Array.from({ length: n }, (_, i) => leaf(i));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// Roots of leaves(n) as the two constructions gave them before they were folded into this helper (the
// block root of model/block.ts and the audit tree of iso20022/bridge/merkle.ts): every stored block hash
// and every anchored audit root depends on these bytes.
const GOLDEN: ReadonlyArray<readonly [number, string, string]> = [
  [
    0,
    '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a9',
    '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a9',
  ],
  [
    1,
    '03170a2e7597b7b7e3d84c05391d139a62b157e78786d8c082f29dcf4c111315',
    'cf064521f23af8ff4452bdbf210ead5128936a8af216fb93fb9ffb432e471147',
  ],
  [
    2,
    'bb15454394eb806f209276c60ffaef5f7e04573642ce69854b969c5169b7bda9',
    'c94ef1bcf8af49491eac19264dad6dfbda4f889f0803acc101a436bbffbf2dfd',
  ],
  [
    3,
    'a47476a49bb2764379d279c7cb4de3441da7dfc9243974fbf9690c504c29ec57',
    '743d81c2cc07b7888d2b8ee4ad390d8f63879d78a7515d5f8bebd9e7d2e1c239',
  ],
  [
    5,
    '8bcff44c96c3cee3d818090e6d9e60efafd39d19c75d0bf0e4de5e6389b792c5',
    '9d150d22e605e5359c1634808440fb1b3ca8908ce783cbce091ec8712de82cbb',
  ],
  [
    7,
    '520f880644075bb7e2db3ab5fd110f127279ef4d7ead599db3448cad89006da7',
    'eea161f47c41023e23ae03fca0fb4a1134da9dad8c3ace8c16d77459925c26bd',
  ],
  [
    8,
    '53b23dd73a89631e00bb81b2e7b5b3236934cc3df0ef4a587f43ae4b9fde7721',
    '2ee7191d39755fe29eda46bc86e3a6a91dcda0cd517cf3ed0488c7e4ef80b745',
  ],
  [
    13,
    'dd0a785fa0d823421b0bc8f3778ac923b586f83b56ee0702037370121875de8d',
    'e56f815ffd4a3b77ceab9eb88b35a97326a650091134003592b6a5b37ebccd19',
  ],
];

/** RFC 6962 §2.1 written out recursively, for any domain: the split at the largest power of two. */
function reference(domain: MerkleDomain, ls: readonly Uint8Array[]): Uint8Array {
  if (ls.length === 0) return hash(new Uint8Array(0));
  if (ls.length === 1) {
    if (domain.leafPrefix === undefined) return ls[0]!;
    return hash(new Uint8Array([domain.leafPrefix, ...ls[0]!]));
  }
  let k = 1;
  while (k * 2 < ls.length) k *= 2;
  return merkleNode(domain, reference(domain, ls.slice(0, k)), reference(domain, ls.slice(k)));
}

describe('the one Merkle helper', () => {
  it('gives the golden roots of both domains, byte for byte', () => {
    for (const [n, block, rfc] of GOLDEN) {
      assert.equal(hex(merkleRoot(BLOCK_MERKLE, leaves(n))), block, `block root of ${n}`);
      assert.equal(hex(merkleRoot(RFC6962_MERKLE, leaves(n))), rfc, `RFC 6962 root of ${n}`);
    }
  });

  it('the bottom-up build equals the recursive split in both domains, up to 40 leaves', () => {
    for (let n = 0; n <= 40; n++) {
      for (const domain of [BLOCK_MERKLE, RFC6962_MERKLE]) {
        assert.deepEqual(merkleRoot(domain, leaves(n)), reference(domain, leaves(n)), `n=${n}`);
      }
    }
  });

  it('the audit path of a leaf is the golden one, and proofs verify in either domain', () => {
    assert.deepEqual(merkleProof(RFC6962_MERKLE, 5, leaves(13)).map(hex), [
      '5a7eca488e687d177d06eddebd274994aa15a90d31783f9bb8372227db9353c7',
      'a727d897e8791c9b43d29a0796a850c1f38532631ed4d3113458d4b0bd6bf3c9',
      '299f428350f03b280bb2140b823016f795ae1411781706ff269b2d09f1275949',
      'fe90156d6116674f1a356bc416d39067d8f09716485c695d4ade1ea04cecbc31',
    ]);
    for (const domain of [BLOCK_MERKLE, RFC6962_MERKLE]) {
      const ls = leaves(11);
      const root = merkleRoot(domain, ls);
      for (let i = 0; i < ls.length; i++) {
        assert.ok(verifyMerkleProof(domain, ls[i]!, i, ls.length, merkleProof(domain, i, ls), root));
      }
    }
  });

  it('reuses the parent of a repeated pair, keyed on identity, and never returns a leaf', () => {
    const a = leaf(1);
    const b = leaf(2);
    const shared = merkleRoot(BLOCK_MERKLE, [a, b, a, b, a, b, a]);
    const copies = merkleRoot(BLOCK_MERKLE, [a, b, a.slice(), b.slice(), a, b.slice(), a]);
    assert.deepEqual(shared, copies);
    assert.deepEqual(shared, reference(BLOCK_MERKLE, [a, b, a, b, a, b, a]));
    const one = merkleRoot(BLOCK_MERKLE, [a]);
    assert.deepEqual(one, a);
    assert.notEqual(one, a);
  });

  it('without a leaf prefix an inner node passes for a leaf (why new trees take one)', () => {
    const ls = leaves(4);
    for (const [domain, collides] of [
      [BLOCK_MERKLE, true],
      [RFC6962_MERKLE, false],
    ] as const) {
      const inner = [merkleRoot(domain, ls.slice(0, 2)), merkleRoot(domain, ls.slice(2))];
      const same = hex(merkleRoot(domain, ls)) === hex(merkleRoot(domain, inner));
      assert.equal(same, collides);
    }
  });
});
