// The multi-process network harness itself (test/helpers/network*.ts), kept independent of BFT: one
// validator process plus an observer that is written but not started (a TCP server stands in for it).
// Relays sit on both ordered links and the configs point at them; the load generator's accepted
// transactions are found committed; kill -9, pause/resume and restart keep the chain.

import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadNodeConfig } from '../../src/node/load-config.js';
import { TestNetwork } from '../helpers/network.js';
import { LoadGenerator } from '../helpers/network-load.js';
import { waitUntil } from '../helpers/network-scenario.js';

/** Connects to `address` and resolves with what arrives at `server` from it, or 'closed'. */
function roundTrip(address: string, received: string[]): Promise<string> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const s: Socket = connect(Number(port), host!, () => s.write('ping'));
    s.on('error', () => resolve('closed'));
    s.on('close', () => resolve('closed'));
    const poll = setInterval(() => {
      if (received.length > 0) {
        clearInterval(poll);
        s.destroy();
        resolve(received.shift()!);
      }
    }, 10);
    s.on('close', () => clearInterval(poll));
  });
}

describe('TestNetwork harness (one validator, no consensus between peers)', () => {
  let net: TestNetwork;
  before(async () => {
    net = await TestNetwork.create({ validators: 1, observers: 1, config: { 'block.min_interval_ms': 0 } });
  });
  after(async () => {
    await net?.stop();
  });

  it('lists every other peer at the relay of its ordered link', async () => {
    for (const [i, j] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const config = await loadNodeConfig({ dir: net.peer(i).dir });
      assert.deepEqual(config.network.peers, [`${net.manifest.peers[j]!.peerId}@${net.relay(i, j).address}`]);
      assert.equal(config.network.listen, net.manifest.peers[i]!.p2pAddress);
      assert.equal(config.network.role, i === 0 ? 'validator' : 'observer');
    }
    assert.throws(() => net.relay(0, 0), /no link/);
  });

  it('relay(0→1) reaches peer 1 p2p port; cut and heal act on both directions', async () => {
    // Peer 1 is not started: a plain TCP server on its p2p port stands in for it.
    const received: string[] = [];
    const port = Number(net.manifest.peers[1]!.p2pAddress.split(':')[1]);
    const server: Server = createServer((s) => s.on('data', (d) => received.push(String(d))));
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    try {
      assert.equal(await roundTrip(net.relay(0, 1).address, received), 'ping');
      net.cut(0, 1);
      assert.equal(await roundTrip(net.relay(0, 1).address, received), 'closed');
      assert.ok(net.relay(1, 0).live() === 0, 'the reverse relay is cut too');
      net.heal(0, 1);
      assert.equal(await roundTrip(net.relay(0, 1).address, received), 'ping');
      net.partition([0], [1]);
      assert.equal(await roundTrip(net.relay(0, 1).address, received), 'closed');
      net.healAll();
      net.delay(0, 1, 150);
      const t0 = Date.now();
      assert.equal(await roundTrip(net.relay(0, 1).address, received), 'ping');
      assert.ok(Date.now() - t0 >= 140, 'delayed by the relay');
      net.healAll();
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('starts, takes load, survives kill -9, pause and restart with the same chain', async () => {
    await net.start([0]);
    assert.deepEqual(await net.waitForHeight(1, [0]), [1]);
    // A probe can time out on a loaded machine: ask again until the peer answers, then check it.
    let seen = await net.leader();
    await waitUntil('peer 0 names a leader', 15_000, async () => {
      seen = await net.leader();
      return seen.leader !== undefined;
    });
    assert.deepEqual(seen, { leader: 0, byPeer: [0, undefined] });

    const load = new LoadGenerator({
      urls: net.manifest.peers.map((p) => p.gatewayUrl),
      chainId: net.manifest.chainId,
      admin: await net.admin(),
      targets: [0],
      ratePerSecond: 40,
    });
    await load.setup();
    load.start();
    await new Promise((r) => setTimeout(r, 1500));
    const report = await load.stop();
    assert.ok(report.accepted >= 20, JSON.stringify(report));
    const [height] = await net.waitForHeight(3, [0]);
    const presence = await load.waitCommittedEverywhere([0]);
    assert.equal(presence.committed, report.accepted, JSON.stringify(presence));
    assert.deepEqual(presence.missing, []);

    const before = await net.compareChains([0]);
    assert.equal(before.difference, undefined);
    const hashesBefore = await blockHashes(net, height!);

    const exit = await net.peer(0).kill9();
    assert.equal(exit?.signal, 'SIGKILL');
    assert.equal(net.peer(0).running, false);
    assert.deepEqual(await net.heights([0]), [undefined]);
    net.peer(0).start();
    await net.peer(0).waitReady();
    assert.ok((await net.heights([0]))[0]! >= height!, 'the chain persisted');
    assert.deepEqual(await blockHashes(net, height!), hashesBefore);

    net.peer(0).pause();
    assert.equal(net.peer(0).paused, true);
    assert.deepEqual(await net.heights([0]), [undefined], 'a paused peer does not answer');
    net.peer(0).resume();
    await net.peer(0).waitReady();

    await net.peer(0).restart();
    assert.equal(net.peer(0).starts, 3);
    assert.deepEqual(await blockHashes(net, height!), hashesBefore);
    assert.ok(
      net
        .peer(0)
        .logs(200)
        .some((l) => l.includes('[exited: SIGKILL]')),
    );
  });
});

async function blockHashes(net: TestNetwork, top: number): Promise<string[]> {
  const out: string[] = [];
  for (let h = 1; h <= top; h++)
    out.push((await net.peer(0).getJson<{ hash: string }>(`/v1/explorer/blocks/${h}`)).hash);
  return out;
}
