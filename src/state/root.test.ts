import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededBytes } from '../../test/helpers/seeded-bytes.js';
import { addLeaf, LeafSum, leafValue } from './root.js';

describe('state root accumulator', () => {
  it('LeafSum gives the bigint sum of leafValue, carries and wrapping past 2^256 included', () => {
    const sum = new LeafSum();
    let want = 0n;
    let wrapped = 0;
    assert.equal(sum.value, 0n);
    for (let i = 0; i < 300; i++) {
      // Keys and values of 0..300 bytes: the reused buffer grows past its first size.
      const key = seededBytes(i + 1, (i * 7) % 301);
      const value = seededBytes(i + 1000, (i * 13) % 290);
      sum.add(key, value);
      const next = addLeaf(want, leafValue(key, value));
      if (next < want) wrapped++;
      want = next;
      assert.equal(sum.value, want, `after ${i + 1} leaves`);
    }
    assert.ok(wrapped > 10, 'the sum wrapped past 2^256');
  });
});
