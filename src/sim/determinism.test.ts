import assert from 'node:assert/strict';
import { test } from 'node:test';
import { huntOptions } from './hunt.js';
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

test('a hunt seed (byzantine kinds, adversary, planted bug) run twice gives the identical trace', async () => {
  const o = { ...huntOptions(325, 'stale-justify-unlock'), traceMessages: true, traceMax: 50 };
  const a = await runSeed(325, o);
  const b = await runSeed(325, o);
  assert.equal(a.traceHash, b.traceHash);
  assert.deepEqual(a.trace, b.trace);
  assert.deepEqual(a.stats, b.stats);
  assert.ok((a.stats.faults.byz_stale_proposal ?? 0) > 0, 'the stale-justify leader acted');
});
