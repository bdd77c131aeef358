import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { equalJitterDelayMs } from './backoff.js';

describe('equalJitterDelayMs', () => {
  it('doubles from the base up to the cap, half fixed and half spread by the fraction', () => {
    assert.equal(equalJitterDelayMs(100, 2_000, 0, 0), 50);
    assert.equal(equalJitterDelayMs(100, 2_000, 0, 0.999), 100);
    assert.equal(equalJitterDelayMs(100, 2_000, 3, 0.5), 600);
    assert.equal(equalJitterDelayMs(100, 2_000, 10, 0), 1_000);
    assert.equal(equalJitterDelayMs(100, 2_000, 1_000, 0.999), 1_999);
    assert.equal(equalJitterDelayMs(100, 2_000, -1, 0), 50, 'a negative attempt counts as the first');
  });
});
