import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { ManualClock } from '../../test/helpers/manual-clock.js';
import { connected, networkFor, rawPeer, testNodes, waitFor } from '../../test/helpers/p2p.js';
import { startRelay } from '../../test/helpers/relay.js';
import { encodeFrame, FrameType } from './frame.js';
import type { PeerNetwork } from './network.js';

const bytes = (s: string) => new TextEncoder().encode(s);

/** The most a loopback connection's kernel buffers can hold: the largest TCP receive plus send buffer. */
function kernelSocketBytes(): number {
  const largest = (name: string, fallback: number) => {
    try {
      const v = Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);
      return Number.isSafeInteger(v) && v > 0 ? v : fallback;
    } catch {
      return fallback;
    }
  };
  return largest('tcp_rmem', 32 * 1024 * 1024) + largest('tcp_wmem', 8 * 1024 * 1024);
}

describe('p2p: PeerNetwork limits and hostile input', () => {
  const running: PeerNetwork[] = [];
  afterEach(async () => {
    for (const n of running.splice(0)) await n.stop();
  });
  const started = async (n: PeerNetwork) => {
    running.push(n);
    await n.start();
    return n;
  };

  it('an oversize frame disconnects the sender and counts', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(networkFor(a!, [b!.key.publicKeyText()], { frameBytesMax: 1024 }));
    const raw = await rawPeer(b!.key, a!.port);
    raw.sendHello();
    await waitFor('b connected', () => connected(na, b!.key.publicKeyText()));
    // A length field of 1025: refused from the header alone, before the body arrives.
    raw.sendRaw(new Uint8Array([0, 0, 4, 1, FrameType.Message]));
    await raw.closed;
    await waitFor('counted', () => na.stats().drops.oversize === 1);
    const info = na.peers()[0]!;
    assert.equal(info.connected, false);
    assert.equal(info.lastDrop, 'oversize');
    assert.equal(info.errors, 1);
  });

  it('a frame of exactly the cap passes; sending above it is refused locally', async () => {
    const [a, b] = await testNodes(2);
    const cap = 4 * 1024 * 1024;
    const na = await started(networkFor(a!, [b!], { frameBytesMax: cap }));
    const nb = await started(networkFor(b!, [a!], { frameBytesMax: cap }));
    let got = 0;
    nb.onMessage((_f, m) => {
      got = m.length;
    });
    await waitFor('connected', () => connected(na, nb.selfId) && connected(nb, na.selfId));
    assert.equal(na.send(nb.selfId, new Uint8Array(cap)), 'too_large');
    assert.equal(na.send(nb.selfId, new Uint8Array(cap - 1).fill(7)), 'queued');
    await waitFor('4 MiB message', () => got === cap - 1);
    assert.equal(na.peers()[0]!.dropped, 1);
  });

  it('garbage inside the encrypted channel disconnects and counts', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(networkFor(a!, [b!.key.publicKeyText()]));
    // First frame not a HELLO.
    const r1 = await rawPeer(b!.key, a!.port);
    r1.sendRaw(encodeFrame(FrameType.Message, bytes('hi')));
    await r1.closed;
    // An unknown frame type after a good HELLO.
    const r2 = await rawPeer(b!.key, a!.port);
    r2.sendHello();
    r2.sendRaw(new Uint8Array([0, 0, 0, 2, 0x7f, 0]));
    await r2.closed;
    // A zero-length frame.
    const r3 = await rawPeer(b!.key, a!.port);
    r3.sendHello();
    r3.sendRaw(new Uint8Array([0, 0, 0, 0]));
    await r3.closed;
    await waitFor('three garbage drops', () => na.stats().drops.garbage === 3);
    // Another network id.
    const r4 = await rawPeer(b!.key, a!.port);
    r4.sendHello('another-chain');
    await r4.closed;
    await waitFor('mismatch', () => na.stats().drops.hello_mismatch === 1);
    // The layer above refusing a message.
    const r5 = await rawPeer(b!.key, a!.port);
    r5.sendHello();
    await waitFor('r5 connected', () => connected(na, b!.key.publicKeyText()));
    na.reportGarbage(b!.key.publicKeyText(), 'undecodable message');
    await r5.closed;
    await waitFor('four garbage drops', () => na.stats().drops.garbage === 4);
  });

  it('garbage bytes before the handshake close the socket and count, and silence times out', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(networkFor(a!, [b!], { handshakeTimeoutMs: 200 }));
    // 8 KiB of noise: more than a handshake could ever need.
    const s = connect(a!.port, '127.0.0.1');
    s.on('error', () => {});
    const closed = new Promise<void>((r) => s.on('close', () => r()));
    s.write(new Uint8Array(8192).fill(0xab));
    await closed;
    await waitFor('handshake failure', () => na.stats().drops.handshake_failed >= 1);
    // A socket that says nothing.
    const quiet = connect(a!.port, '127.0.0.1');
    quiet.on('error', () => {});
    await new Promise<void>((r) => quiet.on('close', () => r()));
    await waitFor('handshake timeout', () => na.stats().drops.handshake_timeout >= 1);
    assert.equal(na.stats().pendingHandshakes, 0);
  });

  it('a peer that does not read fills a bounded send queue and is disconnected', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(networkFor(a!, [b!.key.publicKeyText()], { sendQueueMax: 16 }));
    const raw = await rawPeer(b!.key, a!.port);
    raw.sendHello();
    raw.stream.pause();
    const id = b!.key.publicKeyText();
    await waitFor('connected', () => connected(na, id));
    const chunk = new Uint8Array(256 * 1024);
    let maxQueue = 0;
    let outcome = 'queued';
    let sent = 0;
    while (outcome === 'queued' && sent < 10_000) {
      outcome = na.send(id, chunk);
      sent++;
      maxQueue = Math.max(maxQueue, na.peers()[0]!.sendQueue);
      // Let the socket flush what it can so the queue, not the first write, is what fills.
      if (sent % 8 === 0) await new Promise((r) => setImmediate(r));
    }
    assert.equal(outcome, 'queue_full');
    assert.ok(maxQueue <= 16, `queue reached ${maxQueue}`);
    assert.ok(sent > 16, `only ${sent} sends before the queue filled`);
    assert.equal(na.stats().drops.send_queue_full, 1);
    assert.equal(connected(na, id), false);
    assert.equal(na.send(id, chunk), 'not_connected');
    raw.stream.destroy();
  });

  it('a slow handler pauses the sender (inbound backpressure) and loses nothing', async () => {
    const [a, b] = await testNodes(2);
    // Both networks on one manual clock: a's idle timeout (far below the time its handler holds) is
    // checked only when the test moves the clock, once a has stopped reading; a paused reader must not
    // blame the peer however long it stays paused.
    const clock = new ManualClock();
    const MESSAGE = 64 * 1024;
    // More than the kernel's socket buffers can hold between b and a (a's receive buffer at its largest
    // and b's send buffer), so that what a does not read must wait in b's own queue.
    const count = Math.ceil((kernelSocketBytes() + 4 * 1024 * 1024) / MESSAGE);
    const na = await started(
      networkFor(a!, [b!], { clock, recvQueueMax: 8, pingIntervalMs: 50, idleTimeoutMs: 300 }),
    );
    const nb = await started(
      networkFor(b!, [a!], {
        clock,
        sendQueueMax: count + 16,
        sendQueueBytesMax: (count + 16) * 2 * MESSAGE,
      }),
    );
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const got: number[] = [];
    na.onMessage(async (_f, m) => {
      await gate;
      got.push(m[0]! | (m[1]! << 8));
    });
    const patient = 120_000;
    await waitFor('connected', () => connected(na, nb.selfId) && connected(nb, na.selfId), patient);
    const msg = new Uint8Array(MESSAGE);
    let queued = 0;
    for (let i = 0; i < count; i++) {
      msg[0] = i & 0xff;
      msg[1] = i >> 8;
      if (nb.send(na.selfId, msg.slice()) === 'queued') queued++;
      if (i % 16 === 0) await new Promise((r) => setImmediate(r));
    }
    assert.equal(queued, count);
    // Reading stops at the cap (a few frames of the last chunk may land past it); the rest waits in
    // the sockets and in b's send queue.
    const waiting = () => na.peers()[0]!.recvQueue;
    await waitFor(
      'a stopped at its cap, b holding the rest',
      () => waiting() >= 7 && nb.peers()[0]!.sendQueue > 0,
      patient,
    );
    for (let step = 0; step < 60; step++) {
      clock.advance(50);
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(waiting() >= 7 && waiting() <= 16, `inbound queue ${waiting()}`);
    assert.ok(nb.peers()[0]!.sendQueue > 0, 'b holds what a does not read');
    assert.equal(na.stats().drops.idle_timeout, 0);
    assert.ok(connected(na, nb.selfId));
    release();
    await waitFor('all delivered', () => got.length === queued, patient);
    assert.deepEqual(
      got,
      Array.from({ length: queued }, (_, i) => i & 0xffff),
    );
  });

  it('the inbound cap holds on every connection of a peer, not only the one paused first', async () => {
    const [a, b] = await testNodes(2);
    const na = await started(
      networkFor(a!, [b!.key.publicKeyText()], { recvQueueMax: 4, handshakeTimeoutMs: 60_000 }),
    );
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let handled = 0;
    na.onMessage(async () => {
      await gate;
      handled++;
    });
    // Two connections of the same peer, both past HELLO: one in use, the other parked by the tie-break.
    const first = await rawPeer(b!.key, a!.port);
    first.sendHello();
    await waitFor('first connected', () => connected(na, b!.key.publicKeyText()));
    const second = await rawPeer(b!.key, a!.port);
    second.sendHello();
    const message = (i: number) => encodeFrame(FrameType.Message, new Uint8Array([i]));
    for (let i = 0; i < 8; i++) first.sendRaw(message(i));
    await waitFor('the cap reached', () => na.peers()[0]!.recvQueue >= 3);
    // The peer goes on sending on its other connection, which nothing had paused.
    for (let i = 0; i < 40; i++) second.sendRaw(message(100 + i));
    await new Promise((r) => setTimeout(r, 300));
    const waiting = na.peers()[0]!.recvQueue;
    assert.ok(waiting <= 6, `inbound queue ${waiting} (cap 4)`);
    release();
    await waitFor('the paused reads resumed and handled', () => handled >= 8);
    first.stream.destroy();
    second.stream.destroy();
  });

  it('only ciphertext crosses the wire', async () => {
    const [a, b] = await testNodes(2);
    const relay = await startRelay(b!.port, '127.0.0.1', { recordBytesMax: 1 << 20 });
    try {
      const secret = 'torana-plaintext-marker-0123456789';
      const na = await started(networkFor(a!, [`${b!.key.publicKeyText()}@${relay.address}`]));
      const nb = await started(networkFor(b!, [a!.key.publicKeyText()]));
      const got: string[] = [];
      nb.onMessage((_f, m) => void got.push(new TextDecoder().decode(m)));
      na.onMessage((_f, m) => void got.push(new TextDecoder().decode(m)));
      await waitFor('connected', () => connected(na, nb.selfId) && connected(nb, na.selfId));
      na.send(nb.selfId, bytes(secret));
      nb.send(na.selfId, bytes(secret));
      await waitFor('delivered both ways', () => got.length === 2);
      const wire = relay.recorded();
      assert.ok(wire.length > 2 * secret.length);
      assert.equal(wire.includes(Buffer.from(secret)), false);
      assert.equal(wire.includes(Buffer.from('torana-test')), false, 'HELLO is encrypted too');
      assert.equal(wire.includes(Buffer.from('TRNP')), false);
    } finally {
      await relay.close();
    }
  });
});
