// Abuse scenario: unauthenticated peer handshake slots. Idle TCP connections to a peer listener sit in
// the handshake table until `network.handshake_timeout_ms` (5 s; a minute here); before, 64 such connections from
// anywhere (80 from one host kept an observer at 0 peers for 28–50 s) took every slot. Now one source
// address holds at most `network.handshakes_per_address_max` pending handshakes, and the addresses of
// configured peers have slots of their own. Here `addresses` attacker addresses (127.0.11.x) each keep
// `perAddress` idle connections open, reopening each one the listener closes, while the configured
// peers (on 127.0.0.1) start and must connect; refusals are counted in the drops behind the
// `p2p_handshakes_refused_total` metric.

import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { PeerNetwork } from '../../src/p2p/network.js';
import { connected, networkFor, refusingPort, testNodes, waitFor } from '../helpers/p2p.js';
import { figure, ip } from './clients.js';

export interface HandshakeFloodSize {
  /** Idle connections from one host (the review's case: 80 per listener). */
  oneHost: number;
  /** Attacker addresses of the second phase, each keeping `perAddress` idle connections. */
  addresses: number;
  perAddress: number;
  /** Configured peers that must connect to the flooded listener. */
  peers: number;
}

/** Keeps `count` idle connections from `localAddress` open to `port` until stopped. */
function idleFlood(port: number, localAddress: string, count: number) {
  const sockets = new Set<Socket>();
  let opened = 0;
  let stopped = false;
  const open = () => {
    if (stopped) return;
    const s = connect({ port, host: '127.0.0.1', localAddress });
    opened++;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => {
      sockets.delete(s);
      setTimeout(open, 5); // take the slot again at once
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    opened: () => opened,
    stop() {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

/**
 * One flooded listener: the peers dial it (it cannot dial them: they listen nowhere), listed at the
 * listener by key only (`accept-only`) or with an address it cannot reach (`unreachable`: a peer behind
 * NAT whose address is known, which is what reserves slots for it).
 */
async function phase(
  name: string,
  size: { peers: number },
  listing: 'accept-only' | 'unreachable',
  flood: (port: number) => ReturnType<typeof idleFlood>[],
  heldMin: number,
): Promise<Record<string, number>> {
  const [a, ...others] = await testNodes(1 + size.peers);
  // The listener lets a silent connection hold its slot for a minute (the default is 5 s, and the
  // flood reopens what is closed): without the caps the slots stay taken for the whole phase.
  const limits = { handshakeTimeoutMs: 60_000 };
  const dead = await refusingPort();
  const entries = others.map((o) =>
    listing === 'accept-only' ? o.key.publicKeyText() : `${o.key.publicKeyText()}@127.0.0.1:${dead}`,
  );
  const listener = networkFor(a!, entries, limits);
  const peers: PeerNetwork[] = others.map((o) => networkFor(o, [a!], { listen: '' }));
  const floods: ReturnType<typeof idleFlood>[] = [];
  try {
    await listener.start();
    floods.push(...flood(a!.port));
    await waitFor('the flood holds its slots', () => listener.stats().pendingHandshakes >= heldMin, 20_000);
    const t0 = Date.now();
    for (const p of peers) await p.start();
    let reached = true;
    try {
      await waitFor(
        'every configured peer connected',
        () => others.every((o) => connected(listener, o.key.publicKeyText())),
        15_000,
      );
    } catch {
      reached = false;
    }
    const drops = listener.stats().drops;
    const connectedPeers = listener.peers().filter((p) => p.connected).length;
    figure(`p2p handshake flood, ${name}`, {
      'connections opened': floods.reduce((n, f) => n + f.opened(), 0),
      'pending handshakes': listener.stats().pendingHandshakes,
      'refused per address': drops.too_many_pending_from_address,
      'refused, table full': drops.too_many_pending,
      'configured peers connected': `${connectedPeers} of ${size.peers}${reached ? ` after ${Date.now() - t0} ms` : ' (timed out after 15 s)'}`,
    });
    assert.ok(
      reached,
      `${name}: configured peers connect during the flood (${connectedPeers} of ${size.peers})`,
    );
    return { ...drops };
  } finally {
    for (const f of floods) f.stop();
    for (const p of peers) await p.stop();
    await listener.stop();
  }
}

export async function handshakeFlood(size: HandshakeFloodSize): Promise<void> {
  // One host, accept-only peers: only the per-address cap keeps the slots free.
  const one = await phase(
    `${size.oneHost} idle connections from one host`,
    size,
    'accept-only',
    (port) => [idleFlood(port, ip(11, 0), size.oneHost)],
    Math.min(4, size.oneHost),
  );
  assert.ok(one.too_many_pending_from_address! > 0, 'the per-address cap refused connections');
  // Many addresses fill the shared table: the configured peers' address has slots of its own.
  const many = await phase(
    `${size.addresses} addresses × ${size.perAddress} idle connections`,
    size,
    'unreachable',
    (port) => Array.from({ length: size.addresses }, (_, i) => idleFlood(port, ip(12, i), size.perAddress)),
    Math.min(64, size.addresses * 4),
  );
  assert.ok(many.too_many_pending! > 0, 'the shared table was full');
}
