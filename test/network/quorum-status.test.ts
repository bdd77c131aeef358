// What an operator sees when validators stop: 4 validators and an observer; one validator stopped,
// then two. `GET /status` and `torana status` say whether a quorum is reachable ("no quorum: 2/4
// validators reachable, 3 needed"); a submit-and-wait that cannot commit names that state in its
// error instead of a bare timeout; the observer reports the live validators' view and leader while
// they change views; the two restarted validators bring the quorum back, the waiting transaction
// commits, and every peer (restarted or not) reports the same chain counters. `testnet up`'s leader
// (the peer id the leader route names, mapped to a testnet peer) is the peer at the `leader_index`.

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { probePeer } from '../../src/cli/testnet-status.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { ToranaUnknownOutcomeError } from '../../src/sdk/errors.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { TestNetwork } from '../helpers/network.js';
import { FAST_CONSENSUS, waitUntil } from '../helpers/network-scenario.js';
import { cli } from '../helpers/run-cli.js';

interface StatusJson {
  blocks: number;
  blocks_non_empty: number;
  txs_approved: number;
  txs_rejected: number;
  role: string;
  chain_id: string;
  node_id: string;
  latest_block_height: number;
  catching_up: boolean;
  validators_reachable: number;
  validators_total: number;
  quorum_needed: number;
  quorum_reachable: boolean;
  consensus: { view: number; leader_index: number; height: number };
}

const OBSERVER = 4;
let net: TestNetwork;
before(async () => {
  net = await TestNetwork.create({ validators: 4, observers: 1, config: FAST_CONSENSUS });
  await net.start();
});
after(async () => {
  await net?.stop();
});

const status = (i: number) => net.peer(i).getJson<StatusJson>('/status');

async function cliStatus(i: number): Promise<string> {
  const r = await cli(['status', '--url', net.peer(i).url]);
  assert.equal(r.code, 0, r.err);
  return r.out;
}

it('status tells the truth with one and two validators down, and after they return', async (t) => {
  const admin = await net.admin();
  const client = new ToranaClient({
    url: net.peer(0).url,
    chainId: net.manifest.chainId,
    account: admin.id,
    signer: admin.key,
  });
  const first = await client.submitAndWait(await client.build([ix.log('before')], { nonce: 1 }));
  await net.waitForHeight(first.blockHeight);

  // All up: every validator reachable from every validator.
  await waitUntil('every peer sees 4/4 validators', 30_000, async () =>
    (await Promise.all([0, 1, 2, 3, OBSERVER].map(status))).every((s) => s.validators_reachable === 4),
  );
  const all = await status(0);
  assert.deepEqual(
    [all.role, all.validators_total, all.quorum_needed, all.quorum_reachable, all.catching_up],
    ['validator', 4, 3, true, false],
  );
  assert.equal(all.chain_id, net.manifest.chainId);
  assert.equal(all.node_id, net.manifest.peers[0]!.peerId);
  assert.equal((await status(OBSERVER)).role, 'observer');
  // testnet up's leader is the validator at leader_index (peers numbered in roster order).
  await waitUntil('on every validator, testnet up names peer-<leader_index>', 15_000, async () => {
    const probes = await Promise.all(
      [0, 1, 2, 3].map((i) => Promise.all([status(i), probePeer(net.manifest, i, 5000)])),
    );
    return probes.every(([s, probe]) => probe.leader === s.consensus.leader_index);
  });

  // The time routes measure the peers' clocks (one machine: one clock, offsets within the round trip).
  await waitUntil('time samples from the peers', 30_000, async () => {
    const st = await net.peer(0).getJson<{ fallback: boolean }>('/v1/time/status');
    return !st.fallback;
  });
  const now = await net.peer(0).getJson<{
    offset_ms: number;
    confidence_ms: number;
    sample_count: number;
    peer_count: number;
    fallback: boolean;
    health: { offset_ok: boolean };
  }>('/v1/time/now');
  t.diagnostic(`GET /v1/time/now with 4 peers: ${JSON.stringify(now)}`);
  assert.equal(now.fallback, false);
  assert.equal(now.peer_count, 4);
  assert.ok(now.sample_count >= 3, `samples ${now.sample_count}`);
  // One clock: what is measured is scheduling delay, never beyond the chain's max_clock_drift_ms.
  assert.equal(now.health.offset_ok, true, `offset ${now.offset_ms} ms`);

  // One validator down: still a quorum (3 of 4, 3 needed).
  await net.peer(3).stop();
  await waitUntil(
    'peer-0 sees 3/4 validators',
    30_000,
    async () => (await status(0)).validators_reachable === 3,
  );
  const one = await cliStatus(0);
  t.diagnostic(`one validator down, torana status:\n${one.split('\n').slice(0, 3).join('\n')}`);
  assert.match(one, /^quorum: 3\/4 validators reachable, 3 needed$/m);

  // Two down: no quorum, said plainly.
  await net.peer(2).stop();
  await waitUntil(
    'peer-0 sees 2/4 validators',
    30_000,
    async () => (await status(0)).validators_reachable === 2,
  );
  const two = await status(0);
  assert.deepEqual([two.validators_reachable, two.quorum_needed, two.quorum_reachable], [2, 3, false]);
  const out = await cliStatus(0);
  t.diagnostic(`two validators down, torana status:\n${out.split('\n').slice(0, 3).join('\n')}`);
  assert.match(out, /^no quorum: 2\/4 validators reachable, 3 needed$/m);
  assert.match(out, /^no block can commit until more validators are reachable$/m);

  // A submit-and-wait that cannot commit says why instead of a bare timeout.
  const stuck = await client.build([ix.log('during')], { nonce: 2 });
  const error = await client.submitAndWait(stuck, { timeoutMs: 6_000 }).then(
    () => assert.fail('committed without a quorum'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ToranaUnknownOutcomeError, String(error));
  t.diagnostic(`submit-and-wait without a quorum: ${error.message}`);
  assert.match(error.message, /the node reports no quorum: 2\/4 validators reachable, 3 needed/);

  // The live validators change views over the waiting transaction; the observer follows them.
  await waitUntil('the observer reports the live validators’ view and leader', 30_000, async () => {
    const [v0, v1, o] = await Promise.all([status(0), status(1), status(OBSERVER)]);
    const same = (a: StatusJson, b: StatusJson) =>
      a.consensus.height === b.consensus.height &&
      a.consensus.view === b.consensus.view &&
      a.consensus.leader_index === b.consensus.leader_index;
    return v0.consensus.view > 0 && same(v0, v1) && same(v0, o);
  });
  const phases = await net
    .peer(OBSERVER)
    .getJson<{ samples: number; average?: unknown }>('/v1/consensus/phases');
  assert.equal(phases.samples, 0, 'an observer measures no rounds');
  assert.equal(phases.average ?? null, null, 'and reports no average');

  // Both back: the quorum returns, the waiting transaction commits.
  await net.start([2, 3]);
  await waitUntil(
    'peer-0 sees 4/4 validators',
    30_000,
    async () => (await status(0)).validators_reachable === 4,
  );
  const back = await cliStatus(0);
  t.diagnostic(`both restarted, torana status:\n${back.split('\n').slice(0, 2).join('\n')}`);
  assert.match(back, /^quorum: 4\/4 validators reachable, 3 needed$/m);
  await waitUntil('the waiting transaction commits', 30_000, async () => {
    try {
      return (await client.transactionStatus(stuck.hash)).status === 'Committed';
    } catch {
      return false;
    }
  });

  // Counters are the chain's: the restarted validators report what the others do at the same height.
  const top = Math.max(...(await Promise.all([0, 1, 2, 3, OBSERVER].map(status))).map((s) => s.blocks));
  await net.waitForHeight(top, [0, 1, 2, 3, OBSERVER], 30_000);
  await waitUntil('every peer at one height', 30_000, async () => {
    const heights = (await Promise.all([0, 1, 2, 3, OBSERVER].map(status))).map((s) => s.blocks);
    return heights.every((h) => h === heights[0]);
  });
  const counters = (await Promise.all([0, 1, 2, 3, OBSERVER].map(status))).map((s) => ({
    blocks: s.blocks,
    blocks_non_empty: s.blocks_non_empty,
    txs_approved: s.txs_approved,
    txs_rejected: s.txs_rejected,
  }));
  t.diagnostic(`counters per peer: ${JSON.stringify(counters)}`);
  for (const c of counters.slice(1)) assert.deepEqual(c, counters[0]);
  // Genesis and the two log transactions at least (genesis is one transaction).
  assert.ok(counters[0]!.txs_approved >= 3, `txs_approved ${counters[0]!.txs_approved}`);
});
