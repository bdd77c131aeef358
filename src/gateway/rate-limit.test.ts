import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientKey, createRateLimiter } from './rate-limit.js';

describe('createRateLimiter', () => {
  it('refuses a client whose bucket is empty, with Retry-After seconds, and refills with time', () => {
    let now = 0;
    const limiter = createRateLimiter({ ratePerSecond: 2, burst: 2, trackedMax: 10, now: () => now });
    assert.equal(limiter.take('a').ok, true);
    assert.equal(limiter.take('a').ok, true);
    assert.deepEqual(limiter.take('a'), { ok: false, retryAfterS: 1 });
    now += 500;
    assert.equal(limiter.take('a').ok, true);
  });

  it('forgets the least recently seen client first, whichever client came last', () => {
    const limiter = createRateLimiter({ ratePerSecond: 1, burst: 1, trackedMax: 2, now: () => 0 });
    limiter.take('a');
    limiter.take('b');
    limiter.take('a'); // a is now the most recent; b the least
    limiter.take('a');
    limiter.take('c'); // evicts b
    assert.equal(limiter.size(), 2);
    // a was kept (still empty: refused), b comes back with a full bucket.
    assert.equal(limiter.take('a').ok, false);
    assert.equal(limiter.take('b').ok, true);
  });

  it('counts IPv6 clients by /64 and unwraps IPv4-mapped addresses', () => {
    assert.equal(clientKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(clientKey('::ffff:10.0.0.1'), '10.0.0.1');
    assert.equal(clientKey(undefined), 'unknown');
  });
});
