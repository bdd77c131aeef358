// Far-view messages (votes and NEW_VIEWs at view + 1,000,000 from a byzantine validator) must be
// harmless: no safety or rule failure, and the honest validators still commit everything (liveness).
// n = 4 only for now: at n = 7 with two selective withholders sending far-view copies, seed 0 loses
// liveness on the current core (a far-view vote raises a collector's newest view, after which the
// height's real votes are dropped as too old; see the sim README). The core's far-view bound is to fix
// that; then add n = 7.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSeed } from './run.js';

test('far-view votes and NEW_VIEWs: no violation, liveness holds (n = 4, 4 seeds)', async () => {
  let sent = 0;
  for (const n of [4] as const)
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
