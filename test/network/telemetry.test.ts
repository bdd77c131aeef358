// Telemetry between real processes (docs/telemetry.md): 3 validators and an observer
// on loopback, each sending its telemetry report to its peers over the p2p channel every 250 ms. One node
// lists every other peer with its gateway URL, configuration and fresh reports; a new block's propagation
// counts the three other peers' sightings (peers_reported 3) from their reports; the live feed carries
// both; a killed peer stays listed, connected: false. One short network.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestNetwork } from '../helpers/network.js';
import { readSse } from '../helpers/network-observe.js';
import { FAST_CONSENSUS, waitUntil } from '../helpers/network-scenario.js';
import { timingBound } from '../helpers/timing-bound.js';
import { buildTx, frameTx } from '../helpers/tx.js';

interface Report {
  age_ms: number;
  received_at_ms: number;
  sent_at_ms: number;
  clock_offset_ms: number;
  version: string;
  height: number;
  queue_depth: number;
  blocks: { height: number; hash: string; seen_at_ms: number }[];
}

interface PeerItem {
  peer_id: string;
  self: boolean;
  url?: string;
  address?: string;
  role: string;
  connected: boolean;
  last_seen_ms?: number;
  config?: { chain_id: string; role: string; consensus: string };
  connected_peers?: number;
  reports?: Report[];
  reports_refused?: number;
}

const OBSERVER = 3;

describe('telemetry across 3 validators and an observer, with peer reports', () => {
  let net: TestNetwork;
  before(async () => {
    net = await TestNetwork.create({
      validators: 3,
      observers: 1,
      config: {
        ...FAST_CONSENSUS,
        'telemetry.gossip_interval_ms': 250,
        'telemetry.peer_report_min_gap_ms': 50,
        'telemetry.live_interval_ms': 300,
      },
    });
    await net.start();
  });
  after(async () => net?.stop());

  const peersOf = async (i: number) =>
    (await net.peer(i).getJson<{ items: PeerItem[]; total: number }>('/v1/telemetry/peers-info')).items;

  it('the observer lists every validator with its URL, configuration and fresh reports', async () => {
    await waitUntil('every peer reported to the observer', 20_000, async () => {
      const items = await peersOf(OBSERVER);
      // A report sent before the sender had all its connections says so: wait for one sent after.
      return items.length === 4 && items.slice(1).every((p) => p.connected && p.connected_peers === 3);
    });
    const items = await peersOf(OBSERVER);
    const { peers, chainId } = net.manifest;
    assert.deepEqual(
      items.map((p) => [p.peer_id, p.self]),
      [
        [peers[OBSERVER]!.peerId, true],
        ...peers
          .filter((p) => p.index !== OBSERVER)
          .map((p) => [p.peerId, false])
          .sort(),
      ],
    );
    for (const p of items.slice(1)) {
      const index = peers.findIndex((x) => x.peerId === p.peer_id);
      assert.equal(p.url, net.peer(index).url, 'the gateway URL from its report');
      assert.deepEqual(p.config, { chain_id: chainId, role: 'validator', consensus: 'bft' });
      assert.equal(p.connected_peers, 3);
      // Reports bunched up in transit (a loaded machine) may be refused as too frequent: counted, not zero.
      assert.equal(typeof p.reports_refused, 'number');
      const r = p.reports![0]!;
      assert.match(r.version, /^torana\/\d+\.\d+\.\d+/);
      assert.ok(r.age_ms >= 0, `report age ${r.age_ms}`);
      timingBound({ what: 'report age', value: r.age_ms, max: 5_000, quietWithin: true });
      // One machine, one clock: the offset is the transit time only.
      timingBound({
        what: 'clock offset',
        value: Math.abs(r.clock_offset_ms),
        max: 2_000,
        quietWithin: true,
      });
      assert.ok(r.height >= 1 && r.queue_depth >= 0);
    }
    const fromValidator = await peersOf(0);
    assert.equal(fromValidator.find((p) => p.peer_id === peers[OBSERVER]!.peerId)?.config?.role, 'observer');
  });

  it('a new block: one node counts the other three peers’ sightings, and the live feed carries them', async () => {
    const live = await readSse(net.peer(0).url, '/v1/telemetry/live');
    try {
      const tipBefore = (await net.heights([0]))[0]!;
      const admin = await net.admin();
      const tx = buildTx(admin, [{ kind: 'RegisterDomain', id: 'telemetry', metadata: new Map() }], {
        chainId: net.manifest.chainId,
      });
      const res = await fetch(`${net.peer(0).url}/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-codec' },
        body: frameTx(tx),
      });
      assert.equal(res.status, 202, await res.text());
      // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, checked field by field.
      let p: any;
      await waitUntil('peer-0 has every peer’s sighting of its newest block', 20_000, async () => {
        p = await net.peer(0).getJson('/v1/telemetry/propagation');
        return p.block > tipBefore && p.peers_reported >= 3;
      });
      const self = net.manifest.peers[0]!.peerId;
      const others = net.manifest.peers.slice(1).map((x) => x.peerId);
      assert.equal(p.peers_reported, 3);
      assert.deepEqual(p.reports[0], { peer_id: self, committed_at_ms: p.reports[0].committed_at_ms });
      assert.deepEqual(
        p.reports
          .slice(1)
          .map((r: { peer_id: string }) => r.peer_id)
          .sort(),
        [...others].sort(),
      );
      const times: number[] = p.reports.map((r: { committed_at_ms: number }) => r.committed_at_ms);
      assert.equal(p.last_seen_at_ms, Math.max(...times));
      assert.equal(p.spread_ms, p.last_seen_at_ms - p.first_seen_at_ms);
      assert.ok(p.spread_ms >= 0, `spread ${p.spread_ms}`);
      timingBound({ what: 'propagation spread', value: p.spread_ms, max: 30_000 });
      for (const r of p.reports.slice(1)) {
        assert.ok(r.report_age_ms >= 0);
        timingBound({ what: 'report age', value: r.report_age_ms, max: 5_000, quietWithin: true });
      }
      // Every peer committed the same block: its hash is in each report that counted.
      const items = await peersOf(0);
      for (const item of items.slice(1))
        assert.ok(item.reports!.some((r) => r.blocks.some((b) => b.height === p.block && b.hash === p.hash)));

      await waitUntil('a live snapshot with the peers’ reports', 10_000, async () =>
        live.events.some(
          (e) =>
            e.name === 'telemetry' &&
            (e.data as { propagation: { peers_reported: number } }).propagation.peers_reported === 3,
        ),
      );
      const snap = live.events.findLast((e) => e.name === 'telemetry')!.data as {
        peers: { items: PeerItem[] };
      };
      assert.ok(snap.peers.items.slice(1).every((x) => (x.reports?.length ?? 0) > 0));
    } finally {
      live.close();
    }
  });

  it('a killed peer stays listed, connected: false, its last reports aging', async () => {
    await net.peer(OBSERVER).kill9();
    const observer = net.manifest.peers[OBSERVER]!.peerId;
    await waitUntil('peer-0 sees the observer gone', 20_000, async () => {
      const items = await peersOf(0);
      return items.find((x) => x.peer_id === observer)?.connected === false;
    });
    const items = await peersOf(0);
    assert.equal(items.length, 4);
    assert.equal(items[0]!.connected_peers, 2);
    const gone = items.find((x) => x.peer_id === observer)!;
    assert.ok(gone.last_seen_ms !== undefined, 'last_seen_ms kept');
    // Its reports stay until telemetry.peer_report_stale_ms (60 s), aging.
    assert.ok((gone.reports?.length ?? 0) > 0);
    assert.ok(gone.reports!.every((r) => r.age_ms >= 0 && r.age_ms < 60_000));
  });
});
