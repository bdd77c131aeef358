// Scenario 3: partitions under load. Cut f = 1 validator off: the other 3 keep committing
// and, healed, it catches up. Split 2 | 2 (f + 1 on each side): no side has a quorum, so no height
// moves and nothing forks; healed, commits resume within a few view timeouts.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestNetwork } from '../helpers/network.js';
import type { LoadGenerator } from '../helpers/network-load.js';
import {
  FAST_CONSENSUS,
  heightsOf,
  sleep,
  startLoad,
  stopLoadAndCheck,
} from '../helpers/network-scenario.js';
import { timingBound } from '../helpers/timing-bound.js';

describe('partitions of 4 validators under load', () => {
  let net: TestNetwork;
  let load: LoadGenerator;
  before(async () => {
    net = await TestNetwork.create({ validators: 4, config: FAST_CONSENSUS });
    await net.start();
    load = await startLoad(net, { ratePerSecond: 20 });
  });
  after(async () => {
    await load?.stop();
    await net?.stop();
  });

  it('a partitioned f = 1 peer: the 3 others progress; healed, it catches up', async () => {
    await net.waitForHeight((await heightsOf(net))[0]! + 2);
    net.partition([3], [0, 1, 2]);
    await sleep(500); // a commit in flight at the cut may still land on peer 3
    const [cut] = await heightsOf(net, [3]);
    const majority = await heightsOf(net, [0, 1, 2]);
    await net.waitForHeight(Math.max(...majority) + 4, [0, 1, 2], 20_000);
    const [isolated] = await heightsOf(net, [3]);
    assert.equal(isolated, cut, 'the isolated peer commits nothing alone');

    net.healAll();
    const top = Math.max(...(await heightsOf(net, [0, 1, 2])));
    await net.waitForHeight(top, [3], 20_000);
    await net.assertSameChains();
  });

  it('a 2 | 2 split: no commit on either side, no fork; healed, progress resumes', async () => {
    net.partition([0, 1], [2, 3]);
    await sleep(1000); // let a commit in flight at the cut complete
    const frozen = await heightsOf(net);
    await sleep(5000); // several view timeouts (600 ms, growing ×1.5 up to 3 s)
    assert.deepEqual(await heightsOf(net), frozen, 'no side commits without a quorum');
    await net.assertSameChains();

    net.healAll();
    const healedAt = Date.now();
    await net.waitForHeight(Math.max(...frozen) + 2, undefined, 20_000);
    const resumeMs = Date.now() - healedAt;
    timingBound({ what: 'commits resumed after the heal', value: resumeMs, max: 20_000 });

    await stopLoadAndCheck(net, load);
  });
});
