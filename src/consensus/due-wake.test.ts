import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../test/helpers/manual-clock.js';
import { AssertionError } from '../util/assert.js';
import { DueWake, wakeAtMs } from './due-wake.js';

describe('due work wake', () => {
  it('wakes at the due time, but no sooner than one block time after the newest block', () => {
    assert.equal(wakeAtMs(5_000, undefined, 1_000), 5_000);
    assert.equal(wakeAtMs(5_000, 3_000, 1_000), 5_000);
    assert.equal(wakeAtMs(5_000, 4_900, 1_000), 5_900);
  });

  it('work due every millisecond makes at most one wake block per block time on an idle chain', () => {
    const clock = new ManualClock(10_000);
    let lastBlock = 10_000;
    let wakes = 0;
    const host = {
      clock,
      dueWorkAtMs: () => lastBlock + 1, // always due 1 ms after the newest block
      lastBlockTimeMs: () => lastBlock,
      blockTimeMs: () => 1_000,
    };
    const wake: DueWake = new DueWake(host, () => {
      if (!wake.due()) return;
      wakes++;
      lastBlock = clock.nowMs(); // the engine makes the block, then re-arms
      wake.arm();
    });
    wake.arm();
    assert.equal(wake.due(), false);
    for (let i = 0; i < 10_000; i++) clock.advance(1);
    wake.cancel();
    assert.equal(wakes, 10);
  });

  it('a due time that is not a number stops the arming instead of a timer that fires at once, forever', () => {
    const clock = new ManualClock(10_000);
    let fired = 0;
    const host = {
      clock,
      dueWorkAtMs: () => Number.NaN,
      lastBlockTimeMs: () => 9_000,
      blockTimeMs: () => 1_000,
    };
    const wake = new DueWake(host, () => fired++);
    assert.throws(
      () => wake.arm(),
      (e: unknown) => e instanceof AssertionError && /work due at NaN/.test(e.message),
    );
    clock.advance(100);
    assert.equal(fired, 0);
  });
});
