import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VerifiedTransactions } from './verified-cache.js';

describe('verified-transaction cache', () => {
  it('remembers, forgets on delete, and forgets the oldest past its bound', () => {
    const c = new VerifiedTransactions(3);
    const h = (letter: string) => letter.repeat(64);
    for (const x of ['a', 'b', 'c']) c.add(h(x));
    c.add(h('a')); // already there: not moved, not counted twice
    assert.equal(c.size, 3);
    c.add(h('d'));
    assert.equal(c.size, 3);
    assert.equal(c.has(h('a')), false, 'the oldest went');
    assert.deepEqual(
      ['b', 'c', 'd'].map((x) => c.has(h(x))),
      [true, true, true],
    );
    c.delete(h('c'));
    assert.equal(c.has(h('c')), false);
    assert.equal(c.size, 2);
  });

  it('refuses a key that is not a transaction hash in hex', () => {
    assert.throws(() => new VerifiedTransactions(3).add('abc'), /64|character/);
  });

  it('refuses a bound below one', () => {
    assert.throws(() => new VerifiedTransactions(0), RangeError);
  });
});
