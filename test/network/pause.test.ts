// Scenario 4: SIGSTOP the leader for 10 s under load. The others change view (GET
// /v1/consensus/status counts view changes by cause) and keep committing; after SIGCONT the paused
// peer rejoins and catches up, on the same chain.

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { TestNetwork } from '../helpers/network.js';
import type { LoadGenerator } from '../helpers/network-load.js';
import { type ConsensusStatusJson, consensusStatus } from '../helpers/network-observe.js';
import {
  FAST_CONSENSUS,
  heightsOf,
  sleep,
  startLoad,
  stopLoadAndCheck,
} from '../helpers/network-scenario.js';

const PAUSE_MS = 10_000;

let net: TestNetwork;
let load: LoadGenerator;
before(async () => {
  net = await TestNetwork.create({ validators: 4, config: FAST_CONSENSUS });
  await net.start();
  // A paused peer holds its requests until SIGCONT: room for them without slowing the rest of the load.
  load = await startLoad(net, { ratePerSecond: 20, inFlightMax: 512 });
});
after(async () => {
  await load?.stop();
  await net?.stop();
});

function causesTotal(s: ConsensusStatusJson): number {
  return Object.values(s.view_change_causes).reduce((a, b) => a + b, 0);
}

it('a leader paused for 10 s: view change with a cause, commits go on, it rejoins and catches up', async (t) => {
  await net.waitForHeight((await heightsOf(net))[0]! + 2);
  const { leader } = await net.leader();
  assert.ok(leader !== undefined, 'a leader is named');
  const others = [0, 1, 2, 3].filter((i) => i !== leader);
  const before = await Promise.all(others.map((i) => consensusStatus(net.peer(i))));
  const startHeights = await heightsOf(net, others);
  t.diagnostic(`pausing leader peer-${leader} at heights ${startHeights}`);

  net.peer(leader).pause();
  await sleep(PAUSE_MS);
  const during = await Promise.all(others.map((i) => consensusStatus(net.peer(i))));
  const pausedHeights = await heightsOf(net, others);
  net.peer(leader).resume();
  t.diagnostic(
    `resumed at heights ${pausedHeights}; causes ${JSON.stringify(during[0]!.view_change_causes)}`,
  );

  assert.ok(
    Math.min(...pausedHeights) >= Math.max(...startHeights) + 3,
    'commits went on without the leader',
  );
  others.forEach((peer, k) => {
    const [b, d] = [before[k]!, during[k]!];
    assert.ok(d.view_changes > b.view_changes, `peer-${peer} counted a view change`);
    assert.ok(causesTotal(d) > causesTotal(b), `peer-${peer} gave its view changes a cause`);
    assert.equal(causesTotal(d), d.view_changes, `peer-${peer}: every view change has one cause`);
  });

  await net.peer(leader).waitReady(20_000);
  const top = Math.max(...(await heightsOf(net, others)));
  await net.waitForHeight(top, [leader], 20_000);
  await stopLoadAndCheck(net, load);
});
