import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACKOFF_EXPONENT_MAX, equalJitterDelayMs, exponentialDelayMs } from './backoff.js';

describe('equalJitterDelayMs', () => {
  it('doubles from the base up to the cap, half fixed and half spread by the fraction', () => {
    assert.equal(equalJitterDelayMs(100, 2_000, 0, 0), 50);
    assert.equal(equalJitterDelayMs(100, 2_000, 0, 0.999), 100);
    assert.equal(equalJitterDelayMs(100, 2_000, 3, 0.5), 600);
    assert.equal(equalJitterDelayMs(100, 2_000, 10, 0), 1_000);
    assert.equal(equalJitterDelayMs(100, 2_000, 1_000, 0.999), 1_999);
    assert.equal(equalJitterDelayMs(100, 2_000, -1, 0), 50, 'a negative attempt counts as the first');
  });

  it('a fixed fraction source gives a fixed schedule (the caller injects the spread)', () => {
    const fractions = [0.25, 0.5, 0.75, 0];
    let i = 0;
    const next = () => fractions[i++ % fractions.length]!;
    const schedule = [0, 1, 2, 3].map((a) => equalJitterDelayMs(1_000, 60_000, a, next()));
    assert.deepEqual(schedule, [625, 1_500, 3_500, 4_000]);
  });

  it('reaches a cap far above the base: the exponent is bounded only past 2^40', () => {
    // 1 ms doubling to one hour: 2^22 ms passes the hour, so attempt 30 waits the full hour.
    assert.equal(equalJitterDelayMs(1, 3_600_000, 30, 0.999_999), 3_599_998);
    assert.equal(exponentialDelayMs(1, Number.MAX_SAFE_INTEGER, 1_000), 2 ** BACKOFF_EXPONENT_MAX);
  });
});

describe('exponentialDelayMs', () => {
  it('is baseMs × 2^attempt up to the cap, without jitter', () => {
    assert.deepEqual(
      [0, 1, 2, 5, 6, 100].map((a) => exponentialDelayMs(250, 10_000, a)),
      [250, 500, 1_000, 8_000, 10_000, 10_000],
    );
    assert.equal(exponentialDelayMs(0, 10_000, 5_000), 0, 'a zero base stays zero, never NaN');
    assert.equal(exponentialDelayMs(250, 10_000, -3), 250);
  });
});
