import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addLeaf, LeafSum, leafValue } from './root.js';

/** A deterministic stream of bytes (xorshift), so a failure repeats. */
function bytesOf(seed: number, n: number): Uint8Array {
  let x = seed | 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('state root accumulator', () => {
  it('LeafSum gives the bigint sum of leafValue, carries and wrapping past 2^256 included', () => {
    const sum = new LeafSum();
    let want = 0n;
    let wrapped = 0;
    assert.equal(sum.value, 0n);
    for (let i = 0; i < 300; i++) {
      // Keys and values of 0..300 bytes: the reused buffer grows past its first size.
      const key = bytesOf(i + 1, (i * 7) % 301);
      const value = bytesOf(i + 1000, (i * 13) % 290);
      sum.add(key, value);
      const next = addLeaf(want, leafValue(key, value));
      if (next < want) wrapped++;
      want = next;
      assert.equal(sum.value, want, `after ${i + 1} leaves`);
    }
    assert.ok(wrapped > 10, 'the sum wrapped past 2^256');
  });
});
