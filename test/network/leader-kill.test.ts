// Scenario 2: kill -9 the current leader every 5 s for 20 s (at least 3 kills) under load,
// restarting it each time; the chain keeps growing, no fork, every accepted transaction committed anywhere is committed
// everywhere, restarted peers catch up. The 2-minute version: test/reliability/network-leader-kill.test.ts.

import { it } from 'node:test';
import { leaderKillScenario } from '../helpers/network-leader-kill.js';

it('kill -9 of the leader every 5 s for 20 s (3 kills at least): one chain, progress, no committed transaction lost', async (t) => {
  const t0 = Date.now();
  await leaderKillScenario({
    durationMs: 20_000,
    intervalMs: 5000,
    killsMin: 3,
    log: (l) => t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s ${l}`),
  });
});
