// Register a fifth validator by a transaction — it syncs, then votes from the
// next height; unregister it — it is dropped and the network keeps committing. Four genesis validators
// and a fifth peer (written as the testnet's observer, switched to the validator role before it starts,
// so it follows the chain and votes once a roster names it) run as real processes. No validator's
// configuration lists the fifth (it lists them, its bootstrap peers): the validators' transports admit
// it because the chain registers it, and drop it when the chain unregisters it.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { renderConfigToml } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { blsProvePossession } from '../../src/crypto/bls.js';
import { publicKeyToText } from '../../src/crypto/keys.js';
import { loadConsensusKey } from '../../src/node/consensus-key.js';
import { nodeFiles } from '../../src/node/files.js';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { ToranaClient } from '../../src/sdk/client.js';
import { instructions as ix } from '../../src/sdk/instructions.js';
import { writeFileAtomic } from '../../src/util/atomic-file.js';
import { TestNetwork } from '../helpers/network.js';
import { certificates, rosters, signerPeers } from '../helpers/network-observe.js';
import type { PeerProcess } from '../helpers/network-peer.js';
import { FAST_CONSENSUS, startLoad, waitUntil } from '../helpers/network-scenario.js';

function writeConfig(dir: string, config: Config): Promise<void> {
  return writeFileAtomic(nodeFiles(dir).config, renderConfigToml(config, { onlyNonDefault: true }), 0o600);
}

/** Whether `peer`'s transport has a live session with `peerId` (GET /v1/consensus/status `peers`). */
async function connectedTo(peer: PeerProcess, peerId: string): Promise<boolean> {
  const s = await peer.getJson<{ peers: { peerId?: string; peer_id?: string; connected: boolean }[] }>(
    '/v1/consensus/status',
  );
  return s.peers.some((p) => (p.peerId ?? p.peer_id) === peerId && p.connected);
}

describe('membership: a fifth validator registered and unregistered by transactions', {
  timeout: 240_000,
}, () => {
  let net: TestNetwork;

  before(async () => {
    net = await TestNetwork.create({ validators: 4, observers: 1, config: FAST_CONSENSUS });
    const fifth = net.manifest.peers[4]!;
    const config = await loadNodeConfig({ dir: fifth.dir, overrides: { 'network.role': 'validator' } });
    await writeConfig(fifth.dir, config);
    for (const v of net.manifest.peers.slice(0, 4)) {
      const c = await loadNodeConfig({ dir: v.dir });
      const peers = c.network.peers.filter((e) => !e.startsWith(fifth.peerId));
      assert.equal(peers.length, 3);
      await writeConfig(v.dir, { ...c, network: { ...c.network, peers } });
    }
    await net.start();
  });

  after(async () => {
    await net?.stop();
  });

  it('syncs, votes from the height after its registration, and the network goes on after its removal', async () => {
    const fifth = net.manifest.peers[4]!;
    // Unregistered, the fifth is refused by every validator (it dials them all: they are its peers).
    await waitUntil('the four validators are connected', 60_000, async () => {
      const s = await Promise.all([0, 1, 2, 3].map((i) => net.peer(i).getJson<{ peers: number }>('/status')));
      return s.every((x) => x.peers === 3);
    });
    for (const i of [0, 1, 2, 3]) assert.equal(await connectedTo(net.peer(i), fifth.peerId), false);
    assert.equal((await net.peer(4).getJson<{ peers: number }>('/status')).peers, 0);
    const admin = await net.admin();
    const client = new ToranaClient({
      url: net.manifest.peers[0]!.gatewayUrl,
      chainId: net.manifest.chainId,
      account: admin.id,
      signer: admin.key,
    });
    const bls = await loadConsensusKey(nodeFiles(fifth.dir).consensusKey);
    const register = ix.registerPeer(
      fifth.peerId,
      fifth.p2pAddress,
      publicKeyToText(bls.publicKey),
      blsProvePossession(bls),
    );
    const done = await client.submitAndWait(await client.build([register]), { timeoutMs: 60_000 });
    const registeredAt =
      (done as { blockHeight?: number; block_height?: number }).blockHeight ?? (await net.heights([0]))[0]!;

    const load = await startLoad(net, { ratePerSecond: 10, targets: [0, 1, 2, 3] });
    await net.waitForHeight(registeredAt + 12, [0, 1, 2, 3, 4], 90_000);
    await load.stop();

    // From registeredAt + 1 the roster has five members, the fifth among them, and it signs.
    const roster = await rosters(net.peer(0));
    const certs = (await certificates(net.peer(0))).filter((c) => c.height > registeredAt + 1);
    const withFive = certs.filter((c) => roster.get(c.validator_set_hash)?.length === 5);
    assert.equal(
      withFive.length,
      certs.length,
      'every certificate after the registration names the 5-member set',
    );
    assert.ok(
      withFive.some((c) => signerPeers(c, roster).includes(fifth.peerId)),
      'the fifth validator signed a certificate',
    );
    const before = (await certificates(net.peer(0))).filter((c) => c.height <= registeredAt);
    assert.ok(
      before.every((c) => !signerPeers(c, roster).includes(fifth.peerId)),
      'it never signed before it was registered',
    );

    // Unregistered: the network keeps committing with the four.
    const removed = await client.submitAndWait(await client.build([ix.unregisterPeer(fifth.peerId)]), {
      timeoutMs: 60_000,
    });
    assert.ok(removed);
    // Dropped by every validator's transport (no configuration lists it), so it is left alone.
    await waitUntil('every validator dropped the fifth', 60_000, async () => {
      for (const i of [0, 1, 2, 3]) if (await connectedTo(net.peer(i), fifth.peerId)) return false;
      return (await net.peer(4).getJson<{ peers: number }>('/status')).peers === 0;
    });
    const h = Math.max(...(await net.heights([0, 1, 2, 3])).map((x) => x ?? 0));
    load.start();
    await waitUntil('four validators commit after the removal', 60_000, async () =>
      (await net.heights([0, 1, 2, 3])).every((x) => (x ?? 0) >= h + 5),
    );
    await load.stop();
    const after = (await certificates(net.peer(0))).filter((c) => c.height > h + 1);
    const roster2 = await rosters(net.peer(0));
    assert.ok(after.length > 0 && after.every((c) => roster2.get(c.validator_set_hash)?.length === 4));
    await net.assertSameChains([0, 1, 2, 3, 4]);
  });
});
