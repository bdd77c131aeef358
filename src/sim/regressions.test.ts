// Every seed that failed along the way, with the bug it found. Replay one: npm run sim -- --seed N --n 4|7
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSeed } from './run.js';

const REGRESSIONS: { seed: number; n: 4 | 7; observer?: boolean; bug: string }[] = [
  // driver.ts gossiped a transaction's bare encoding; Pipeline.submit admits only framed bytes, so every
  // peer refused gossip as a codec error and only the leader's own clients' transactions got in.
  { seed: 1, n: 4, bug: 'gossip refused as codec error' },
  // A peer that lost the Tip messages of the last commits (loss, partition) never synced once the cluster
  // went quiet: it view-changed alone at its old height forever. Fixed: Tip on view timeout, answered.
  { seed: 36, n: 4, bug: 'peer behind never caught up in a quiet cluster' },
  { seed: 7, n: 7, bug: 'peer behind never caught up in a quiet cluster' },
  { seed: 13, n: 7, bug: 'peer behind never caught up in a quiet cluster' },
  { seed: 196, n: 4, bug: 'peer behind never caught up in a quiet cluster' },
  // Leaders whose proposals lost their views kept the taken transactions in flight until the next
  // commit; with every copy in flight somewhere, no queue had work and no one proposed again.
  { seed: 1142, n: 4, bug: 'taken transactions never released after a lost view' },
  // The same, when the leader left its view by joining a later one (its own timer never fired).
  { seed: 925, n: 7, bug: 'taken transactions never released after joining a later view' },
  // Every validator locked on a Prepare QC, then all crashed: the lock survived (safety file) but no one
  // kept the block, so the leader waited for a payload nobody had and nothing committed again. Fixed:
  // the payloads a peer proposed or voted Prepare for are persisted with its safety state.
  { seed: 1007504, n: 4, bug: 'locked block lost with every crash: no payload to re-propose' },
  // An observer misses the last commits of a quiet cluster and has no timer to ask (kept: safety only).
  { seed: 257, n: 4, observer: true, bug: 'observer behind in a quiet cluster (liveness not required)' },
];

for (const r of REGRESSIONS) {
  test(`seed ${r.seed} (n=${r.n}): ${r.bug}`, async () => {
    const res = await runSeed(r.seed, { n: r.n, observer: r.observer ?? false, traceMax: 0 });
    assert.equal(res.failure, undefined);
    assert.ok(res.stats.acked > 0);
  });
}
