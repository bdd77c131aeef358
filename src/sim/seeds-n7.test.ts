// 500 seeds of a 7-validator cluster (with an observer on every other seed): no checker may fail.
// Measured: about 12 s of CPU on one core of the 2-core CI machine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSeeds } from './seeds.js';

test('500 seeds, n = 7: safety and liveness hold', async () => {
  const a = await runSeeds(100_000, 250, { n: 7 });
  const b = await runSeeds(100_250, 250, { n: 7, observer: true });
  const failing = [...a.failing, ...b.failing];
  assert.deepEqual(failing, [], 'replay with: npm run sim -- --seed N --n 7');
  assert.ok(a.faults.crash! > 0 && a.faults.partition! > 0 && a.faults.lost! > 0, 'faults were injected');
});
