import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { connected, networkFor, testNodes, waitFor } from '../../test/helpers/p2p.js';
import { startRelay } from '../../test/helpers/relay.js';
import { isP2pError } from './errors.js';
import type { PeerNetwork } from './network.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('p2p: PeerNetwork connects configured peers', () => {
  const running: PeerNetwork[] = [];
  afterEach(async () => {
    for (const n of running.splice(0)) await n.stop();
  });
  const started = async (n: PeerNetwork) => {
    running.push(n);
    await n.start();
    return n;
  };

  it('two peers connect and exchange messages both ways, in order', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(networkFor(a!, [b!]));
    const nb = await started(networkFor(b!, [a!], { role: 'observer' }));
    const atA: string[] = [];
    const atB: string[] = [];
    na.onMessage((from, m) => {
      assert.equal(from, nb.selfId);
      atA.push(text(m));
    });
    nb.onMessage((from, m) => {
      assert.equal(from, na.selfId);
      atB.push(text(m));
    });
    await waitFor('a and b connected', () => connected(na, nb.selfId) && connected(nb, na.selfId));
    for (let i = 0; i < 50; i++) {
      assert.equal(na.send(nb.selfId, bytes(`a${i}`)), 'queued');
      assert.equal(nb.send(na.selfId, bytes(`b${i}`)), 'queued');
    }
    await waitFor('50 messages each way', () => atA.length === 50 && atB.length === 50);
    assert.deepEqual(
      atB,
      Array.from({ length: 50 }, (_, i) => `a${i}`),
    );
    assert.deepEqual(
      atA,
      Array.from({ length: 50 }, (_, i) => `b${i}`),
    );
    const [infoB] = na.peers();
    assert.equal(infoB!.peerId, nb.selfId);
    assert.equal(infoB!.role, 'observer');
    assert.equal(infoB!.messagesOut, 50);
    assert.equal(infoB!.messagesIn, 50);
    assert.ok(infoB!.bytesIn > 50 * 7 && infoB!.bytesOut > 50 * 7);
    assert.ok(infoB!.lastSeenMs > 0);
    assert.equal(infoB!.address, `127.0.0.1:${b!.port}`);
    assert.equal(na.peers()[0]!.sessionId, nb.peers()[0]!.sessionId);
  });

  it('three peers form a full mesh; broadcast reaches the others and honours the filter', async () => {
    const [a, b, c] = await testNodes(3);
    const na = await started(networkFor(a!, [b!, c!]));
    const nb = await started(networkFor(b!, [a!, c!]));
    const nc = await started(networkFor(c!, [a!, b!], { role: 'observer' }));
    const got = new Map<string, string[]>();
    for (const n of [na, nb, nc]) {
      got.set(n.selfId, []);
      n.onMessage((from, m) => void got.get(n.selfId)!.push(`${from.slice(-4)}:${text(m)}`));
    }
    await waitFor('mesh', () => [na, nb, nc].every((n) => n.peers().every((p) => p.connected)));
    assert.equal(na.broadcast(bytes('to-all')), 2);
    assert.equal(
      na.broadcast(bytes('to-validators'), (p) => p.role === 'validator'),
      1,
    );
    await waitFor('deliveries', () => got.get(nb.selfId)!.length === 2 && got.get(nc.selfId)!.length === 1);
    const tag = na.selfId.slice(-4);
    assert.deepEqual(got.get(nb.selfId), [`${tag}:to-all`, `${tag}:to-validators`]);
    assert.deepEqual(got.get(nc.selfId), [`${tag}:to-all`]);
    assert.equal(nb.send(nc.selfId, bytes('b-to-c')), 'queued');
    assert.equal(nc.send(na.selfId, bytes('c-to-a')), 'queued');
    await waitFor('pairwise', () => got.get(nc.selfId)!.length === 2 && got.get(na.selfId)!.length === 1);
  });

  it('refuses an unknown key on both sides: as listener and as dialer', async () => {
    const [a, b, stranger] = await testNodes(3);
    // The stranger lists a; a does not list the stranger.
    const na = await started(networkFor(a!, [b!]));
    const ns = await started(networkFor(stranger!, [a!]));
    await waitFor('a refused the stranger as listener', () => na.stats().drops.unknown_key >= 1);
    assert.equal(connected(ns, na.selfId), false);
    assert.equal(
      na.peers().some((p) => p.peerId === ns.selfId),
      false,
    );
    // a dials b's address, where the stranger's key answers instead (it accepts a, never dials).
    const before = na.stats().drops.unknown_key;
    await started(
      networkFor(stranger!, [], { listen: `127.0.0.1:${b!.port}`, peers: [a!.key.publicKeyText()] }),
    );
    await waitFor('a refused the key at b as dialer', () => na.peers()[0]!.lastDrop === 'unknown_key');
    assert.ok(na.stats().drops.unknown_key > before);
    assert.equal(connected(na, b!.key.publicKeyText()), false);
    assert.ok(na.peers()[0]!.errors >= 1);
  });

  it('reconnects with backoff after the remote restarts', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(networkFor(a!, [b!]));
    let nb = await started(networkFor(b!, [a!]));
    const states: string[] = [];
    na.onPeerState((e) => states.push(`${e.connected ? 'up' : 'down'}${e.reason ? `:${e.reason}` : ''}`));
    await waitFor('connected', () => connected(na, nb.selfId));
    const firstSession = na.peers()[0]!.sessionId;
    await nb.stop();
    running.splice(running.indexOf(nb), 1);
    await waitFor('a saw b go', () => !connected(na, nb.selfId));
    nb = await started(networkFor(b!, [a!]));
    const atB: string[] = [];
    nb.onMessage((_f, m) => void atB.push(text(m)));
    await waitFor('reconnected', () => connected(na, nb.selfId));
    assert.notEqual(na.peers()[0]!.sessionId, firstSession);
    // Both ends redial at once here; the tie-break settles it without a visible flap.
    assert.equal(na.peers()[0]!.reconnects, 1);
    assert.deepEqual(states, ['up', 'down:remote_closed', 'up']);
    assert.equal(na.send(nb.selfId, bytes('after restart')), 'queued');
    await waitFor('message after restart', () => atB.includes('after restart'));
  });

  it('simultaneous dial leaves exactly one connection, the same on both ends', async () => {
    const [a, b] = await testNodes(2);
    const na = networkFor(a!, [b!]);
    const nb = networkFor(b!, [a!]);
    running.push(na, nb);
    const events: string[] = [];
    na.onPeerState((e) => events.push(`a:${e.connected ? 'up' : 'down'}`));
    nb.onPeerState((e) => events.push(`b:${e.connected ? 'up' : 'down'}`));
    await Promise.all([na.start(), nb.start()]);
    await waitFor('one shared session', () => {
      const pa = na.peers()[0]!;
      const pb = nb.peers()[0]!;
      return pa.connected && pb.connected && pa.sessionId === pb.sessionId;
    });
    // Let any losing connection finish closing, then check it stayed that way.
    await new Promise((r) => setTimeout(r, 300));
    const pa = na.peers()[0]!;
    const pb = nb.peers()[0]!;
    assert.ok(pa.connected && pb.connected);
    assert.equal(pa.sessionId, pb.sessionId);
    // Neither end saw a drop: the losing connection was parked, not closed under the other end.
    assert.deepEqual(events.sort(), ['a:up', 'b:up']);
    assert.equal(pa.reconnects + pb.reconnects, 0);
    assert.equal(na.stats().pendingHandshakes + nb.stats().pendingHandshakes, 0);
    // Each end dialed, so one connection lost: after its grace it is closed as a duplicate.
    await waitFor('loser closed', () => na.stats().drops.duplicate + nb.stats().drops.duplicate >= 1, 5000);
    assert.equal(na.stats().drops.remote_closed + nb.stats().drops.remote_closed <= 1, true);
    assert.ok(connected(na, nb.selfId) && connected(nb, na.selfId));
    const got: string[] = [];
    nb.onMessage((_f, m) => void got.push(text(m)));
    na.send(nb.selfId, bytes('one'));
    await waitFor('delivered once', () => got.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(got, ['one']);
  });

  it('setPeers: a removed peer is disconnected and refused; adding it back reconnects', async () => {
    const [a, b, c] = await testNodes(3);
    const na = await started(networkFor(a!, [b!]));
    const nb = await started(networkFor(b!, [a!]));
    await waitFor('connected', () => connected(na, nb.selfId) && connected(nb, na.selfId));
    assert.throws(() => na.setPeers(['junk']), /network\.peers\[0\]/);
    assert.ok(connected(na, nb.selfId), 'a bad list changes nothing');
    na.setPeers([c!.entry]);
    assert.deepEqual(
      na.peers().map((p) => p.peerId),
      [c!.key.publicKeyText()],
    );
    await waitFor('b lost a', () => !connected(nb, na.selfId));
    // b keeps redialing a, and a now refuses b's key.
    await waitFor('a refuses b', () => na.stats().drops.unknown_key >= 1);
    // Every session with b ends as `removed`: one, or two when a simultaneous dial's parked duplicate was
    // still within its grace when b was removed.
    assert.ok(na.stats().drops.removed >= 1, `removed ${na.stats().drops.removed}`);
    assert.ok(!connected(na, nb.selfId));
    na.setPeers([b!.entry, c!.entry]);
    await waitFor('reconnected', () => connected(na, nb.selfId) && connected(nb, na.selfId));
  });

  it('start refuses a listen address in use with p2p_listen_failed, and start twice with p2p_state', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(networkFor(a!, [b!]));
    await assert.rejects(na.start(), (e) => isP2pError(e) && e.code === 'p2p_state');
    const clash = networkFor(b!, [a!], { listen: `127.0.0.1:${a!.port}` });
    await assert.rejects(clash.start(), (e) => isP2pError(e) && e.code === 'p2p_listen_failed');
    await clash.stop();
  });

  it('peers through a relay: a cut link drops, redials are refused, and heal reconnects', async () => {
    const [a, b] = await testNodes(2);
    const relay = await startRelay(b!.port);
    try {
      const viaRelay = `${b!.key.publicKeyText()}@${relay.address}`;
      const na = await started(networkFor(a!, [viaRelay]));
      // b accepts a but does not dial it: the only path is a → relay → b.
      const nb = await started(networkFor(b!, [a!.key.publicKeyText()]));
      await waitFor('connected through relay', () => connected(na, nb.selfId) && connected(nb, na.selfId));
      relay.cut();
      await waitFor('cut seen', () => !connected(na, nb.selfId));
      await waitFor('redials refused', () => relay.accepted() >= 3);
      assert.equal(connected(na, nb.selfId), false);
      relay.heal();
      await waitFor('healed', () => connected(na, nb.selfId) && connected(nb, na.selfId));
      assert.ok(na.peers()[0]!.reconnects >= 1);
    } finally {
      await relay.close();
    }
  });
});
