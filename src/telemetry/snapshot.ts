// The answers of the telemetry routes, built from the port and the propagation tracker: the peer list
// (this node first, then every configured peer as the p2p layer sees it) and the live snapshot feed.

import { EventBatch } from '../gateway/event-batch.js';
import type { EventFeed, StreamEvent } from '../gateway/sse.js';
import type { TelemetryPort } from './port.js';
import type { PropagationTracker } from './tracker.js';
import { type PeerInfo, type PeersInfo, TelemetrySnapshotView } from './views.js';

/** This node, then its configured peers in the p2p layer's order. */
export function peerItems(port: TelemetryPort): PeerInfo[] {
  const self = port.self();
  const peers = port.peers();
  const me: PeerInfo = {
    peerId: self.peerId,
    self: true,
    url: self.url,
    role: self.role,
    connected: true,
    config: { chainId: self.chainId, role: self.role, consensus: self.consensus },
    connectedPeers: peers.filter((p) => p.connected).length,
  };
  return [
    me,
    ...peers.map(
      (p): PeerInfo => ({
        peerId: p.peerId,
        self: false,
        ...(p.address === '' ? {} : { address: p.address }),
        role: p.role,
        connected: p.connected,
        ...(p.lastSeenMs > 0 ? { lastSeenMs: p.lastSeenMs } : {}),
      }),
    ),
  ];
}

export function peersInfo(port: TelemetryPort, offset = 0, limit = Number.MAX_SAFE_INTEGER): PeersInfo {
  const items = peerItems(port);
  return { items: items.slice(offset, offset + limit), total: items.length };
}

/**
 * A feed of telemetry snapshots for serveSse: one at once, then one every `intervalMs`. Snapshots have no
 * history, so a client resuming with Last-Event-ID continues with the current one. Event ids are the node
 * clock in ms, forced to grow strictly past the resume id, as on `/v1/consensus/status/sse`.
 */
export function liveFeed(port: TelemetryPort, tracker: PropagationTracker, intervalMs: number): EventFeed {
  let last = 0;
  const next = (after: number): StreamEvent => {
    const atMs = Math.floor(port.nowMs());
    last = Math.max(last + 1, after + 1, atMs);
    const snapshot = { atMs, peers: peersInfo(port), propagation: tracker.propagation() };
    return { id: last, name: 'telemetry', data: TelemetrySnapshotView.toJson(snapshot) };
  };
  return {
    lastId: () => last,
    since: (lastId) => [next(lastId)],
    subscribe(fn, filter) {
      const tick = () => {
        const e = next(0);
        if (filter === undefined || filter.keep(e)) fn(new EventBatch([e]));
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
