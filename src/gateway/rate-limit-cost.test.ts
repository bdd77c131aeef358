// The per-client token bucket: requests cost one token, batched submission one per item (all or nothing
// with `take(key, cost)`, as many as the bucket holds with `takeUpTo`), refilled at the rate.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRateLimiter } from './rate-limit.js';

function limiter(ratePerSecond: number, burst: number) {
  const clock = { ms: 0 };
  const l = createRateLimiter({ ratePerSecond, burst, trackedMax: 10, now: () => clock.ms });
  return { l, clock };
}

describe('rate limiter costs', () => {
  it('take(key, cost) takes the whole cost or nothing', () => {
    const { l, clock } = limiter(10, 20);
    assert.deepEqual(l.take('a', 15), { ok: true });
    assert.deepEqual(l.take('a', 6), { ok: false, retryAfterS: 1 });
    assert.deepEqual(l.take('a', 5), { ok: true });
    assert.deepEqual(l.take('a'), { ok: false, retryAfterS: 1 });
    clock.ms = 1000;
    assert.deepEqual(l.take('a', 10), { ok: true });
    // Above the burst it can never be paid whole: the wait is to a full bucket.
    assert.deepEqual(l.take('a', 50), { ok: false, retryAfterS: 2 });
  });

  it('takeUpTo grants the first items the bucket holds and names the wait for the rest', () => {
    const { l, clock } = limiter(2, 5);
    assert.deepEqual(l.takeUpTo('a', 3), { granted: 3, retryAfterS: 0 });
    assert.deepEqual(l.takeUpTo('a', 4), { granted: 2, retryAfterS: 1 });
    assert.deepEqual(l.takeUpTo('a', 1), { granted: 0, retryAfterS: 1 });
    assert.deepEqual(l.take('a'), { ok: false, retryAfterS: 1 });
    assert.deepEqual(l.takeUpTo('b', 1), { granted: 1, retryAfterS: 0 });
    clock.ms = 1500;
    assert.deepEqual(l.takeUpTo('a', 10), { granted: 3, retryAfterS: 1 });
  });

  it('a rate of 0 grants everything', () => {
    const { l } = limiter(0, 1);
    assert.deepEqual(l.take('a', 1000), { ok: true });
    assert.deepEqual(l.takeUpTo('a', 1000), { granted: 1000, retryAfterS: 0 });
  });
});
