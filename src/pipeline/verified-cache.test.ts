import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VerifiedTransactions } from './verified-cache.js';

describe('verified-transaction cache', () => {
  it('remembers, forgets on delete, and forgets the oldest past its bound', () => {
    const c = new VerifiedTransactions(3);
    for (const h of ['a', 'b', 'c']) c.add(h);
    c.add('a'); // already there: not moved, not counted twice
    assert.equal(c.size, 3);
    c.add('d');
    assert.equal(c.size, 3);
    assert.equal(c.has('a'), false, 'the oldest went');
    assert.deepEqual(
      ['b', 'c', 'd'].map((h) => c.has(h)),
      [true, true, true],
    );
    c.delete('c');
    assert.equal(c.has('c'), false);
    assert.equal(c.size, 2);
  });

  it('refuses a bound below one', () => {
    assert.throws(() => new VerifiedTransactions(0), RangeError);
  });
});
