import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TopK } from './top-k.js';

describe('TopK', () => {
  it('keeps the k smallest of a stream, in order, whatever the input order', () => {
    // A fixed pseudo-random permutation (seeded LCG), so a failure replays exactly.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const k of [0, 1, 5, 100, 1000, 2000]) {
      const values = Array.from({ length: 1000 }, (_, i) => i);
      for (let i = values.length - 1; i > 0; i--) {
        const j = next() % (i + 1);
        [values[i], values[j]] = [values[j]!, values[i]!];
      }
      const top = new TopK<number>(k, (a, b) => a - b);
      for (const v of values) top.offer(v);
      assert.deepEqual(
        top.sorted(),
        Array.from({ length: Math.min(k, 1000) }, (_, i) => i),
      );
    }
  });
});
