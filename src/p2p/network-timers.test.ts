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
    // Both networks run on one manual clock: pings and the idle check fire only when the test moves it,
    // and each step waits until the pings it sent have arrived, so a slow machine cannot pass for a
    // silent peer.
    const clock = new ManualClock();
    const startMs = clock.nowMs();
    const timers = { clock, pingIntervalMs: 100, idleTimeoutMs: 1000 };
    const na = await started(networkFor(a!, [b!, c!.key.publicKeyText()], timers));
    const nb = await started(networkFor(b!, [a!], timers));
    const patient = 60_000;
    await waitFor('connected', () => connected(na, nb.selfId) && connected(nb, na.selfId), patient);
    const bAtA = () => na.peers().find((p) => p.peerId === nb.selfId)!;
    const aAtB = () => nb.peers().find((p) => p.peerId === na.selfId)!;
    const session = bAtA().sessionId;
    const session0SeenMs = bAtA().lastSeenMs;
    /** One ping interval of clock time, then until each side has heard the other's ping of that moment. */
    const step = async () => {
      clock.advance(timers.pingIntervalMs);
      const now = clock.nowMs();
      const heard = () => bAtA().lastSeenMs === now && aAtB().lastSeenMs === now;
      await waitFor('pings of this step', () => heard() || !bAtA().connected, patient);
      assert.equal(bAtA().connected, true, `b still connected at +${now - startMs} ms`);
    };
    for (let t = 0; t < 2 * timers.idleTimeoutMs; t += timers.pingIntervalMs) await step();
    const info = bAtA();
    assert.equal(info.connected, true);
    assert.equal(info.sessionId, session, 'same connection after twice the idle timeout of no messages');
    // Pings count as being heard from: lastSeenMs is recent although no message came.
    assert.equal(info.messagesIn, 0);
    assert.ok(info.lastSeenMs > session0SeenMs, 'lastSeenMs moved on after the handshake');
    // c completes the handshake and HELLO, then says nothing (a paused process).
    const raw = await rawPeer(c!.key, a!.port);
    raw.sendHello();
    const cId = c!.key.publicKeyText();
    await waitFor('c admitted', () => connected(na, cId), patient);
    const admittedMs = clock.nowMs();
    // Just short of the idle timeout since c's HELLO: c is still connected.
    while (clock.nowMs() + timers.pingIntervalMs < admittedMs + timers.idleTimeoutMs) await step();
    assert.equal(connected(na, cId), true, 'c kept until its idle timeout');
    assert.equal(na.stats().drops.idle_timeout, 0);
    // Past it: c is closed for silence, b (whose pings keep coming) is not.
    await step();
    await step();
    await waitFor('c dropped', () => na.stats().drops.idle_timeout > 0, patient);
    await raw.closed;
    assert.equal(na.stats().drops.idle_timeout, 1);
    assert.equal(na.peers().find((p) => p.peerId === cId)!.lastDrop, 'idle_timeout');
    assert.equal(bAtA().sessionId, session);
  });
});
