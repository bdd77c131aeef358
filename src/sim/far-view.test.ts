// Far-view messages (votes and NEW_VIEWs at view + 1,000,000 from a byzantine validator) must be
// harmless: no safety or rule failure, and the honest validators still commit everything (liveness).
// At n = 7 (two byzantine validators) a far-view vote used to raise a collector's newest view, after
// which the height's real votes were dropped as too old and liveness was lost; the core's far-view
// bound (bounds.ts) now keeps such votes from moving the window, and n = 7 holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSeed } from './run.js';

test('far-view votes and NEW_VIEWs: no violation, liveness holds (n = 4 and 7, 4 seeds each)', async () => {
  let sent = 0;
  for (const n of [4, 7] as const)
    for (let seed = 0; seed < 4; seed++) {
      const r = await runSeed(seed, {
        n,
        byzantine: ['double-voter', 'selective-withholder'],
        farView: true,
        traceMax: 0,
      });
      assert.equal(r.failure, undefined, `n=${n} seed ${seed}`);
      sent += r.stats.faults.byz_far_view ?? 0;
    }
  assert.ok(sent > 0, 'far-view messages were sent');
});
