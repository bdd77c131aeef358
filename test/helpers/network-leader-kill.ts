// The leader-kill scenario, shared by test/network/leader-kill.test.ts (short, in `npm test`) and
// test/reliability/network-leader-kill.test.ts (2 minutes): under load, kill -9 whichever validator the
// others name leader every `intervalMs`, restart it at once, and at the end demand one chain, every
// accepted-and-committed transaction on every peer, and the restarted peers caught up by block sync.

import assert from 'node:assert/strict';
import { TestNetwork } from './network.js';
import { LoadGenerator } from './network-load.js';
import { consensusStatus, presenceFromBlocks } from './network-observe.js';
import { FAST_CONSENSUS, sleep } from './network-scenario.js';

export interface LeaderKillOptions {
  /** How long the kills go on at least. */
  durationMs: number;
  /**
   * Kills at least (default 1): on a slow machine a restart can take longer than the interval, so the
   * kills go on past durationMs until there were this many.
   */
  killsMin?: number;
  /** Time between two kills (a kill waits for the previous victim to serve again: one fault at a time). */
  intervalMs: number;
  ratePerSecond?: number;
  log?: (line: string) => void;
}

export interface LeaderKillReport {
  kills: { peer: number; atHeight: number }[];
  heightBefore: number;
  heightAfter: number;
  accepted: number;
  committed: number;
}

/** Kills the current leader every intervalMs for durationMs; returns what it did once all checks pass. */
export async function leaderKillScenario(opts: LeaderKillOptions): Promise<LeaderKillReport> {
  const log = opts.log ?? (() => {});
  const net = await TestNetwork.create({ validators: 4, config: FAST_CONSENSUS });
  try {
    await net.start();
    log('network started');
    const load = new LoadGenerator({
      urls: net.manifest.peers.map((p) => p.gatewayUrl),
      chainId: net.manifest.chainId,
      admin: await net.admin(),
      ratePerSecond: opts.ratePerSecond ?? 30,
    });
    await load.setup();
    const heightBefore = Math.max(...((await net.heights()) as number[]));
    load.start();
    const kills = await killLeaders(net, opts, log);
    const report = await load.stop();
    log(`load: ${JSON.stringify(report)}`);
    await net.start(net.peers.flatMap((p, i) => (p.running ? [] : [i])));

    // Every peer catches up to the highest one (the restarted ones by block sync) and the chains agree.
    const top = Math.max(...((await net.heights()) as number[]));
    await net.waitForHeight(top, undefined, 30_000);
    assert.ok(
      top > heightBefore + kills.length,
      `height grew: ${heightBefore} → ${top} over ${kills.length} kills`,
    );
    await net.assertSameChains();
    log(`all at height ${top}, same chains`);
    // A killed leader leaves heights it would lead without a proposal: the peers never restarted
    // (counters start again with a process) must have changed view.
    const survivors = net.peers.flatMap((p, i) => (p.starts === 1 ? [i] : []));
    if (survivors.length > 0) {
      const statuses = await Promise.all(survivors.map((i) => consensusStatus(net.peer(i))));
      const causes = statuses.map((s) => JSON.stringify(s.view_change_causes));
      log(`view changes of never-killed peers ${survivors}: ${causes}`);
      assert.ok(
        statuses.some((s) => s.view_changes > 0),
        `a never-killed peer counted a view change: ${causes}`,
      );
    }

    const presence = await presenceFromBlocks(
      net,
      load.accepted.map((a) => a.hash),
    );
    log(`presence: committed ${presence.committed}, not committed ${presence.notCommitted}`);
    assert.deepEqual(presence.missing, [], 'every transaction committed somewhere is committed everywhere');
    assert.ok(
      presence.committed >= report.accepted / 2,
      `most accepted transactions commit: ${presence.committed}`,
    );
    return {
      kills,
      heightBefore,
      heightAfter: top,
      accepted: report.accepted,
      committed: presence.committed,
    };
  } catch (e) {
    for (const p of net.peers) log(`${p.label}:\n${p.logs(60).join('\n')}`);
    throw e;
  } finally {
    await net.stop();
  }
}

async function killLeaders(
  net: TestNetwork,
  opts: LeaderKillOptions,
  log: (line: string) => void,
): Promise<LeaderKillReport['kills']> {
  const kills: LeaderKillReport['kills'] = [];
  const end = Date.now() + opts.durationMs;
  while (Date.now() < end || kills.length < (opts.killsMin ?? 1)) {
    const { leader, byPeer } = await net.leader();
    const heights = await net.heights();
    if (leader === undefined) {
      log(`no leader named (${byPeer}); heights ${heights}`);
      await sleep(250);
      continue;
    }
    const atHeight = Math.max(...heights.map((h) => h ?? 0));
    const killedAt = Date.now();
    log(`kill -9 leader peer-${leader} (heights ${heights})`);
    await net.peer(leader).kill9();
    net.peer(leader).start();
    kills.push({ peer: leader, atHeight });
    // One fault at a time: the next kill waits for the victim to serve again and to have caught up (by
    // block sync) with the height the network had when it was killed.
    await net.peer(leader).waitReady(60_000);
    const others = (await net.heights()).filter((_, i) => i !== leader).map((h) => h ?? 0);
    const target = Math.max(atHeight, ...others);
    await net.waitForHeight(target, [leader], 30_000);
    log(`peer-${leader} back and at height >= ${target} after ${Date.now() - killedAt} ms`);
    await sleep(killedAt + opts.intervalMs - Date.now());
  }
  return kills;
}
