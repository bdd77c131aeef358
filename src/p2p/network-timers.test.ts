import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ManualClock } from '../../test/helpers/manual-clock.js';
import { connected, networkFor, rawPeer, refusingPort, testNodes, waitFor } from '../../test/helpers/p2p.js';
import { reconnectDelayMs } from './backoff.js';
import type { PeerNetwork } from './network.js';

describe('p2p: PeerNetwork timers', () => {
  const running: PeerNetwork[] = [];
  afterEach(async () => {
    for (const n of running.splice(0)) await n.stop();
  });
  const started = async (n: PeerNetwork) => {
    running.push(n);
    await n.start();
    return n;
  };

  it('redials an unreachable peer on the seeded backoff schedule of the injected clock', async () => {
    const [a, b] = await testNodes(2);
    const clock = new ManualClock();
    const seed = new Uint8Array([42]);
    const deadPort = await refusingPort();
    const peer = `${b!.key.publicKeyText()}@127.0.0.1:${deadPort}`;
    const na = await started(
      networkFor(a!, [peer], {
        clock,
        listen: '',
        jitterSeed: seed,
        reconnectBaseMs: 100,
        reconnectMaxMs: 1000,
      }),
    );
    const policy = { baseMs: 100, maxMs: 1000, seed };
    const id = b!.key.publicKeyText();
    for (let attempt = 0; attempt < 6; attempt++) {
      const want = reconnectDelayMs(policy, id, attempt);
      // The failed dial (connection refused) arms the next redial with exactly this delay.
      await waitFor(`redial ${attempt} armed`, () => clock.pending().includes(want));
      assert.equal(na.peers()[0]!.lastDrop, 'remote_closed');
      clock.advance(want);
    }
    assert.equal(na.peers()[0]!.errors, 6);
    assert.ok(reconnectDelayMs(policy, id, 5) <= 1000 && reconnectDelayMs(policy, id, 5) >= 500);
  });

  it('pings keep a quiet connection alive; a silent peer is closed at the idle timeout', async () => {
    const [a, b, c] = await testNodes(3);
    // Margins for a loaded 2-core machine: a stalled event loop must not pass for a silent peer.
    const timers = { pingIntervalMs: 100, idleTimeoutMs: 4000 };
    const na = await started(networkFor(a!, [b!, c!.key.publicKeyText()], timers));
    const nb = await started(networkFor(b!, [a!], timers));
    await waitFor('connected', () => connected(na, nb.selfId) && connected(nb, na.selfId));
    const session = na.peers().find((p) => p.peerId === nb.selfId)!.sessionId;
    const session0SeenMs = na.peers().find((p) => p.peerId === nb.selfId)!.lastSeenMs;
    await new Promise((r) => setTimeout(r, 5000));
    const info = na.peers().find((p) => p.peerId === nb.selfId)!;
    assert.equal(info.connected, true);
    assert.equal(info.sessionId, session, 'same connection after 5000 ms of no messages');
    // Pings count as being heard from: lastSeenMs is recent although no message came.
    assert.equal(info.messagesIn, 0);
    // Recent although no message came: pings refresh it (the connection above also outlived the idle timeout).
    assert.ok(info.lastSeenMs > session0SeenMs, 'lastSeenMs moved on after the handshake');
    // c completes the handshake and HELLO, then says nothing (a paused process).
    const raw = await rawPeer(c!.key, a!.port);
    raw.sendHello();
    // Not polled for "connected": on a loaded machine the poll can miss the window before the idle drop.
    // The drop's reason below says the session was admitted, then closed for silence.
    await raw.closed;
    assert.equal(na.stats().drops.idle_timeout, 1);
    assert.equal(na.peers().find((p) => p.peerId === c!.key.publicKeyText())!.lastDrop, 'idle_timeout');
  });
});
