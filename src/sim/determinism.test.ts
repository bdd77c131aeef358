import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSeed } from './run.js';

test('one seed run twice gives the identical trace; another seed another', async () => {
  for (const [seed, n] of [
    [3, 4],
    [8, 7],
  ] as const) {
    const a = await runSeed(seed, { n, traceMessages: true, traceMax: 50 });
    const b = await runSeed(seed, { n, traceMessages: true, traceMax: 50 });
    assert.equal(a.traceHash, b.traceHash);
    assert.deepEqual(a.trace, b.trace);
    assert.deepEqual(a.stats, b.stats);
    assert.ok(a.stats.messages > 0);
  }
  const c = await runSeed(4, { n: 4, traceMessages: true });
  const d = await runSeed(3, { n: 4, traceMessages: true });
  assert.notEqual(c.traceHash, d.traceHash);
});
