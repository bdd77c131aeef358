// Multi-process tests on loopback, long version of test/network/leader-kill.test.ts: for 2
// minutes under load, kill -9 the current leader of 4 validators every 5 s (one fault at a time: each
// kill waits for the previous victim to serve again and catch up), restarting it each time. One chain
// at the end, the height grew, every accepted transaction committed anywhere is committed everywhere.

import { it } from 'node:test';
import { leaderKillScenario } from '../helpers/network-leader-kill.js';

it('kill -9 of the leader every 5 s for 2 minutes: one chain, progress, no committed transaction lost', async () => {
  const t0 = Date.now();
  const report = await leaderKillScenario({
    durationMs: 120_000,
    intervalMs: 5000,
    killsMin: 8,
    log: (l) => console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s ${l}`),
  });
  const victims = report.kills.map((k) => k.peer).join(',');
  console.log(
    `[figure] kills ${report.kills.length} (peers ${victims}), height ${report.heightBefore} → ${report.heightAfter}, ` +
      `accepted ${report.accepted}, committed ${report.committed}, lost 0`,
  );
});
