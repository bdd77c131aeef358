// Answer types of the telemetry routes (docs/telemetry.md), defined once as codec types: the JSON answer,
// the codec answer (`Accept: application/x-codec`) and the JSON Schema of the OpenAPI document.

import type { Infer } from '../codec/codec.js';
import { option, seq, struct } from '../codec/compound.js';
import { bool, string, varint, varuint } from '../codec/primitives.js';

/** A node's own configuration as it reports it (only this node's: peers are not polled). */
export const PeerConfigView = struct('TelemetryPeerConfig', {
  chainId: string(256),
  /** validator | observer */
  role: string(16),
  /** single-peer | bft */
  consensus: string(16),
});

export const PeerInfoView = struct('TelemetryPeerInfo', {
  peerId: string(256),
  /** True for the node answering (listed first); false for its peers. */
  self: bool,
  /** Gateway URL: known for this node only (the p2p layer carries no gateway addresses). */
  url: option(string(512)),
  /** P2P `host:port` of a peer (configured, or the remote end of its live connection). */
  address: option(string(512)),
  /** validator | observer | unknown (never connected) */
  role: string(16),
  connected: bool,
  /** Wall-clock ms of the last bytes received from the peer; absent if never heard from. */
  lastSeenMs: option(varuint),
  config: option(PeerConfigView),
  /** Peers the node is connected to: known for this node only. */
  connectedPeers: option(varuint),
});
export type PeerInfo = Infer<typeof PeerInfoView>;

export const PeersInfoView = struct('TelemetryPeersInfo', { items: seq(PeerInfoView), total: varuint });
export type PeersInfo = Infer<typeof PeersInfoView>;

/** One observer's sighting of the block: the moment it committed it. */
export const PropagationReportView = struct('TelemetryPropagationReport', {
  peerId: string(256),
  committedAtMs: varuint,
});

export const PropagationView = struct('TelemetryPropagation', {
  /** Newest committed height (0: no block yet). */
  block: varuint,
  /** The block's creation time, from its header (written by its proposer): when the first peer had it. */
  firstSeenAtMs: option(varuint),
  /** The latest commit time among the reports; absent when no report exists (committed before start). */
  lastSeenAtMs: option(varuint),
  /** last_seen_at_ms - first_seen_at_ms (negative only when the proposer's clock runs ahead). */
  spreadMs: option(varint),
  /** Peers other than this node whose sighting is included (the p2p layer carries none yet: 0). */
  peersReported: varuint,
  /** The sightings behind last_seen_at_ms: this node's own commit time. */
  reports: seq(PropagationReportView),
});
export type Propagation = Infer<typeof PropagationView>;

/** One message of `GET /v1/telemetry/live`. */
export const TelemetrySnapshotView = struct('TelemetrySnapshot', {
  atMs: varuint,
  peers: PeersInfoView,
  propagation: PropagationView,
});
export type TelemetrySnapshot = Infer<typeof TelemetrySnapshotView>;
