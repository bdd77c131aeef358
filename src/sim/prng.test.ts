import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimClock } from './clock.js';
import { Prng } from './prng.js';

test('the same seed draws the same sequence; another seed another', () => {
  const a = new Prng(42);
  const b = new Prng(42);
  const c = new Prng(43);
  const xs = Array.from({ length: 100 }, () => a.u32());
  assert.deepEqual(
    Array.from({ length: 100 }, () => b.u32()),
    xs,
  );
  assert.notDeepEqual(
    Array.from({ length: 100 }, () => c.u32()),
    xs,
  );
  const d = new Prng(7);
  for (let i = 0; i < 1000; i++) {
    const v = d.int(3, 9);
    assert.ok(v >= 3 && v <= 9 && Number.isInteger(v));
    const f = d.float();
    assert.ok(f >= 0 && f < 1);
  }
});

test('the sim clock runs events by (time, seq) and lets their promises settle between events', async () => {
  const clock = new SimClock(1000);
  const seen: string[] = [];
  clock.setTimeout(() => seen.push('b@10'), 10);
  clock.setTimeout(() => {
    seen.push('a@0');
    void Promise.resolve().then(() => seen.push('a-then'));
    clock.setTimeout(() => seen.push('c@0'), 0);
  }, 0);
  const cancelled = clock.setTimeout(() => seen.push('never'), 5);
  cancelled.cancel();
  await clock.run(100, () => true);
  assert.deepEqual(seen, ['a@0', 'a-then', 'c@0', 'b@10']);
  assert.equal(clock.monotonicMs(), 100);
  assert.equal(clock.nowMs(), 1100);
});
