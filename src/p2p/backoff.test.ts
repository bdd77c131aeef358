import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_LIMITS } from '../../test/helpers/p2p.js';
import { jitterFraction, reconnectDelayMs } from './backoff.js';
import { isP2pError } from './errors.js';
import { checkOptions } from './options.js';

const seed = new Uint8Array([1, 2, 3]);

describe('p2p: reconnect backoff', () => {
  it('doubles from the base, stays within [full/2, full], and stops at the cap', () => {
    const p = { baseMs: 100, maxMs: 5000, seed };
    for (let attempt = 0; attempt < 30; attempt++) {
      const full = Math.min(5000, 100 * 2 ** attempt);
      const d = reconnectDelayMs(p, 'peer', attempt);
      assert.ok(d >= full / 2 && d <= full, `attempt ${attempt}: ${d}`);
    }
    assert.ok(reconnectDelayMs(p, 'peer', 1000) <= 5000);
  });

  it('is a function of (seed, peer, attempt): same inputs, same delay; others spread', () => {
    const p = { baseMs: 1000, maxMs: 1000, seed };
    assert.equal(reconnectDelayMs(p, 'a', 3), reconnectDelayMs(p, 'a', 3));
    const spread = new Set(Array.from({ length: 50 }, (_, i) => reconnectDelayMs(p, `peer-${i}`, 0)));
    assert.ok(spread.size > 40, `only ${spread.size} distinct delays`);
    const other = { ...p, seed: new Uint8Array([9]) };
    assert.notEqual(jitterFraction(p.seed, 'a', 0), jitterFraction(other.seed, 'a', 0));
    for (let i = 0; i < 100; i++) {
      const f = jitterFraction(seed, 'x', i);
      assert.ok(f >= 0 && f < 1);
    }
  });
});

describe('p2p: option checks', () => {
  it('accepts the test limits and refuses contradictions with p2p_invalid_options', () => {
    checkOptions(TEST_LIMITS);
    for (const bad of [
      { frameBytesMax: 0 },
      { frameBytesMax: 16 * 1024 * 1024 },
      { sendQueueMax: 1.5 },
      { reconnectBaseMs: 500, reconnectMaxMs: 100 },
      { pingIntervalMs: 5001, idleTimeoutMs: 5000 },
      { sendQueueBytesMax: 1024, frameBytesMax: 2048 },
    ]) {
      assert.throws(
        () => checkOptions({ ...TEST_LIMITS, ...bad }),
        (e) => isP2pError(e) && e.code === 'p2p_invalid_options',
        JSON.stringify(bad),
      );
    }
  });
});
