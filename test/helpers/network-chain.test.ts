// chainDifference (network-chain.ts): the first height and field where peers disagree, or none.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainDifference, type PeerBlock } from './network-chain.js';

function chain(n: number, tag = ''): PeerBlock[] {
  return Array.from({ length: n }, (_, k) => ({
    height: k + 1,
    hash: `h${k + 1}${tag}`,
    prev_hash: k === 0 ? '00' : `h${k}`,
    state_root: `s${k + 1}`,
  }));
}

describe('chainDifference', () => {
  it('finds nothing when every peer has the same blocks', () => {
    assert.deepEqual(chainDifference([0, 2], [chain(3), chain(3)], 3), { heightsCompared: 3, peers: [0, 2] });
  });

  it('reports the first differing height and field with every peer value', () => {
    const a = chain(4);
    const b = chain(4);
    b[2] = { ...b[2]!, state_root: 'other' };
    b[3] = { ...b[3]!, hash: 'fork' };
    assert.deepEqual(chainDifference([1, 3], [a, b], 4).difference, {
      height: 3,
      field: 'state_root',
      values: { 1: 's3', 3: 'other' },
    });
    assert.deepEqual(chainDifference([0, 1, 2], [a, chain(4), chain(4, 'x')], 4).difference, {
      height: 1,
      field: 'hash',
      values: { 0: 'h1', 1: 'h1', 2: 'h1x' },
    });
  });

  it('counts a block one peer lacks as a difference', () => {
    assert.equal(chainDifference([0, 1], [chain(2), chain(1)], 2).difference?.height, 2);
  });
});
