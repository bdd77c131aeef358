// The answers of the telemetry routes, built from the port, the peers' reports and the propagation
// tracker: the peer list (this node first, then every configured peer as the p2p layer sees it, with
// what its reports say) and the live snapshot feed.

import { EventBatch } from '../../gateway/event-batch.js';
import type { EventFeed, StreamEvent } from '../../gateway/sse.js';
import type { PeerReports, ReceivedReport } from './peer-reports.js';
import type { TelemetryPeer, TelemetryPort } from './port.js';
import type { PropagationTracker } from './tracker.js';
import { type PeerInfo, type PeerReport, type PeersInfo, TelemetrySnapshotView } from './views.js';

function reportView({ report: r, receivedAtMs }: ReceivedReport, nowMs: number): PeerReport {
  return {
    ageMs: Math.max(0, Math.floor(nowMs - receivedAtMs)),
    receivedAtMs: Math.floor(receivedAtMs),
    sentAtMs: r.sentAtMs,
    clockOffsetMs: Math.floor(receivedAtMs) - r.sentAtMs,
    version: r.version,
    height: r.height,
    queueDepth: r.queueDepth,
    blocks: r.blocks,
  };
}

/** A configured peer: the p2p layer's state of it, then what its newest fresh report says. */
function peerItem(p: TelemetryPeer, chainId: string, reports: PeerReports, nowMs: number): PeerInfo {
  const kept = reports.reports(p.peerId, nowMs);
  const newest = kept[0]?.report;
  return {
    peerId: p.peerId,
    self: false,
    ...(newest?.gatewayUrl === undefined ? {} : { url: newest.gatewayUrl }),
    ...(p.address === '' ? {} : { address: p.address }),
    role: p.role,
    connected: p.connected,
    ...(p.lastSeenMs > 0 ? { lastSeenMs: p.lastSeenMs } : {}),
    // The HELLO of every connection checks the chain id, so a peer that reports runs this chain.
    ...(newest === undefined
      ? {}
      : {
          config: { chainId, role: newest.role, consensus: newest.consensus },
          connectedPeers: newest.connectedPeers,
        }),
    reports: kept.map((r) => reportView(r, nowMs)),
    reportsRefused: reports.refused(p.peerId),
  };
}

/** This node, then its configured peers in the p2p layer's order. */
export function peerItems(port: TelemetryPort, reports: PeerReports): PeerInfo[] {
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
  const nowMs = port.nowMs();
  return [me, ...peers.map((p) => peerItem(p, self.chainId, reports, nowMs))];
}

export function peersInfo(
  port: TelemetryPort,
  reports: PeerReports,
  offset = 0,
  limit = Number.MAX_SAFE_INTEGER,
): PeersInfo {
  const items = peerItems(port, reports);
  return { items: items.slice(offset, offset + limit), total: items.length };
}

/**
 * A feed of telemetry snapshots for serveSse: one at once, then one every `intervalMs`. Snapshots have no
 * history, so a client resuming with Last-Event-ID continues with the current one. Event ids are the node
 * clock in ms, forced to grow strictly past the resume id, as on `/v1/consensus/status/sse`.
 */
export function liveFeed(
  port: TelemetryPort,
  reports: PeerReports,
  tracker: PropagationTracker,
  intervalMs: number,
): EventFeed {
  let last = 0;
  const next = (after: number): StreamEvent => {
    const atMs = Math.floor(port.nowMs());
    last = Math.max(last + 1, after + 1, atMs);
    const snapshot = { atMs, peers: peersInfo(port, reports), propagation: tracker.propagation() };
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
