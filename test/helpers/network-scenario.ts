// Shared settings and steps of the network scenarios (test/network/*.test.ts): short consensus timers
// so that view changes, catch-up and recovery fit in the < 60 s each scenario has on a 2-core machine.

import assert from 'node:assert/strict';
import type { TestNetwork } from './network.js';
import { LoadGenerator } from './network-load.js';
import { presenceFromBlocks } from './network-observe.js';

/** Config overrides for every peer of a scenario (dotted keys of src/config/schema.ts). */
export const FAST_CONSENSUS: Readonly<Record<string, unknown>> = {
  'consensus.view_timeout_ms': 600,
  'consensus.view_timeout_max_ms': 3000,
  'block.min_interval_ms': 0,
};

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls `cond` every 250 ms until it holds; throws with `what` after `timeoutMs`. */
export async function waitUntil(
  what: string,
  timeoutMs: number,
  cond: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(250);
  }
}

/** A load generator on every peer of `net` (or `targets`), set up and started. */
export async function startLoad(
  net: TestNetwork,
  opts: { ratePerSecond: number; targets?: number[]; inFlightMax?: number },
): Promise<LoadGenerator> {
  const load = new LoadGenerator({
    urls: net.manifest.peers.map((p) => p.gatewayUrl),
    chainId: net.manifest.chainId,
    admin: await net.admin(),
    ...opts,
  });
  await load.setup(opts.targets?.[0] ?? 0);
  load.start();
  return load;
}

/** The heights of `which`, throwing if one does not answer. */
export async function heightsOf(net: TestNetwork, which?: number[]): Promise<number[]> {
  const hs = await net.heights(which);
  if (hs.some((h) => h === undefined)) throw new Error(`a peer does not answer: ${hs}`);
  return hs as number[];
}

/**
 * Stops `load`, lets the last commits land, then checks one chain on every peer and that every accepted
 * transaction committed anywhere is on every peer (and most accepted ones committed at all).
 */
export async function stopLoadAndCheck(net: TestNetwork, load: LoadGenerator): Promise<void> {
  const report = await load.stop();
  await sleep(2000);
  await net.assertSameChains();
  const presence = await presenceFromBlocks(
    net,
    load.accepted.map((a) => a.hash),
  );
  assert.deepEqual(presence.missing, [], JSON.stringify(presence.missing.slice(0, 5)));
  assert.ok(presence.committed > report.accepted / 2, `${JSON.stringify(report)} ${presence.committed}`);
}
