// The quorum of a validator set: any two quorums share at least f + 1 validators (so at least one honest
// one), which the safety argument needs, and f validators down still leave a quorum (liveness). 2f+1
// has that property only when n = 3f+1: with 5 validators two quorums of 3 share one, possibly faulty.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidatorSet } from './validator-set.js';

const setOf = (n: number) =>
  new ValidatorSet(
    Array.from({ length: n }, (_, i) => ({
      peer: `ed0120${i.toString(16).padStart(64, '0').toUpperCase()}`,
      blsKey: `ea0130${'ab'.repeat(48)}`,
    })),
  );

describe('validator set quorum', () => {
  it('two quorums intersect in f + 1 and f faults leave a quorum, for n = 1..40', () => {
    const rows: string[] = [];
    for (let n = 1; n <= 40; n++) {
      const s = setOf(n);
      const q = s.quorum;
      assert.ok(2 * q - n >= s.f + 1, `n=${n}: quorums of ${q} share ${2 * q - n} < f+1 = ${s.f + 1}`);
      assert.ok(q <= n - s.f, `n=${n}: quorum ${q} unreachable with ${s.f} down`);
      if (n <= 10) rows.push(`n=${n} f=${s.f} q=${q}`);
    }
    console.log(rows.join(', '));
  });

  it('is 2f+1 when n = 3f+1 and every validator when n <= 3; 4 of 5 and 4 of 6', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 10].map((n) => setOf(n).quorum),
      [1, 2, 3, 3, 4, 4, 5, 7],
    );
  });

  it('one slot per peer: a roster naming a peer twice is a bug', () => {
    const v = { peer: `ed0120${'1'.repeat(64)}`, blsKey: `ea0130${'ab'.repeat(48)}` };
    assert.throws(() => new ValidatorSet([v, v]), /twice/);
  });
});
