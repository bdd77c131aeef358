// Telemetry between real processes (app-families.md §6; docs/telemetry.md): a validator and an observer
// on loopback. Each lists the other from its p2p layer, connected, with the time it last heard from it; a
// new block's propagation on the observer is the validator's header time against the observer's own
// commit; once the observer is killed the validator still lists it, connected: false. One short network.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestNetwork } from '../helpers/network.js';
import { waitUntil } from '../helpers/network-scenario.js';
import { buildTx, frameTx } from '../helpers/tx.js';

interface PeerItem {
  peer_id: string;
  self: boolean;
  url?: string;
  address?: string;
  role: string;
  connected: boolean;
  last_seen_ms?: number;
  connected_peers?: number;
}

describe('telemetry across a validator and an observer', () => {
  let net: TestNetwork;
  before(async () => {
    net = await TestNetwork.create({ validators: 1, observers: 1, config: { 'block.min_interval_ms': 0 } });
    await net.start();
  });
  after(async () => net?.stop());

  const peersOf = async (i: number) =>
    (await net.peer(i).getJson<{ items: PeerItem[]; total: number }>('/v1/telemetry/peers-info')).items;

  it('each lists itself and the other, connected, heard from recently', async () => {
    const [v, o] = net.manifest.peers;
    await waitUntil('both connected', 20_000, async () => {
      const [a, b] = await Promise.all([peersOf(0), peersOf(1)]);
      return a[1]?.connected === true && b[1]?.connected === true;
    });
    const items = await peersOf(0);
    assert.equal(items.length, 2);
    assert.deepEqual(
      [items[0]!.peer_id, items[0]!.self, items[0]!.url, items[0]!.connected_peers],
      [v!.peerId, true, net.peer(0).url, 1],
    );
    const other = items[1]!;
    assert.deepEqual(
      [other.peer_id, other.self, other.role, other.connected],
      [o!.peerId, false, 'observer', true],
    );
    assert.ok(other.address !== undefined && other.address.length > 0);
    assert.ok(other.last_seen_ms !== undefined && Math.abs(Date.now() - other.last_seen_ms) < 15_000);
    assert.equal(other.url, undefined, 'a peer’s gateway URL is not known from the p2p layer');
    assert.equal((await peersOf(1))[1]!.role, 'validator');
  });

  it('a new block: the observer reports the validator’s header time and its own commit', async () => {
    const admin = await net.admin();
    const tx = buildTx(admin, [{ kind: 'RegisterDomain', id: 'telemetry', metadata: new Map() }], {
      chainId: net.manifest.chainId,
    });
    const sent = Date.now();
    const res = await fetch(`${net.peer(0).url}/transaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-codec' },
      body: frameTx(tx),
    });
    assert.equal(res.status, 202, await res.text());
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, checked field by field.
    let p: any;
    await waitUntil('the observer commits the new block', 20_000, async () => {
      p = await net.peer(1).getJson('/v1/telemetry/propagation');
      return p.block > 1 && p.last_seen_at_ms !== undefined;
    });
    // The validator read the same header, and committed the block itself.
    // biome-ignore lint/suspicious/noExplicitAny: parsed JSON, checked field by field.
    const v: any = await net.peer(0).getJson('/v1/telemetry/propagation');
    assert.equal(v.block, p.block);
    assert.equal(v.first_seen_at_ms, p.first_seen_at_ms);
    assert.deepEqual(
      v.reports.map((r: { peer_id: string }) => r.peer_id),
      [net.manifest.peers[0]!.peerId],
    );
    assert.ok(p.first_seen_at_ms >= sent - 1_000, 'created after the transaction was sent');
    assert.ok(p.last_seen_at_ms >= p.first_seen_at_ms);
    assert.equal(p.spread_ms, p.last_seen_at_ms - p.first_seen_at_ms);
    assert.equal(p.peers_reported, 0);
    assert.deepEqual(p.reports, [
      { peer_id: net.manifest.peers[1]!.peerId, committed_at_ms: p.last_seen_at_ms },
    ]);
  });

  it('a killed peer stays listed, connected: false, with the time it was last heard from', async () => {
    await net.peer(1).kill9();
    await waitUntil('the validator sees the observer gone', 20_000, async () => {
      const items = await peersOf(0);
      return items[1]?.connected === false;
    });
    const items = await peersOf(0);
    assert.equal(items.length, 2);
    assert.equal(items[0]!.connected_peers, 0);
    assert.ok(items[1]!.last_seen_ms !== undefined, 'last_seen_ms kept');
  });
});
