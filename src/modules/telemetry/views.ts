// Answer types of the telemetry routes (docs/telemetry.md), defined once as codec types: the JSON answer,
// the codec answer (`Accept: application/x-codec`) and the JSON Schema of the OpenAPI document.

import type { Infer } from '../../codec/codec.js';
import { option, seq, struct } from '../../codec/compound.js';
import { bool, string, varint, varuint } from '../../codec/primitives.js';
import { Hash } from '../../model/keys.js';
import { REPORT_BLOCKS_MAX } from './report-codec.js';

/** A node's configuration: this node's own, a peer's from its newest report. */
export const PeerConfigView = struct('TelemetryPeerConfig', {
  chainId: string(256),
  /** validator | observer */
  role: string(16),
  /** single-peer | bft */
  consensus: string(16),
});

/** A block in a peer report: the local time (the peer's clock) it committed it. */
export const PeerReportBlockView = struct('TelemetryPeerReportBlock', {
  height: varuint,
  hash: Hash,
  seenAtMs: varuint,
});

/** One report a peer sent (docs/telemetry.md "Peer reports"). */
export const PeerReportView = struct('TelemetryPeerReport', {
  /** How long ago this node received it (its clock). */
  ageMs: varuint,
  /** This node's clock when it arrived. */
  receivedAtMs: varuint,
  /** The peer's clock when it sent it. */
  sentAtMs: varuint,
  /** received_at_ms - sent_at_ms: how far the peer's clock runs behind this node's, plus the transit time. */
  clockOffsetMs: varint,
  /** The peer's software version. */
  version: string(64),
  /** The peer's newest committed height. */
  height: varuint,
  /** Transactions waiting in the peer's queue. */
  queueDepth: varuint,
  /** The peer's most recent commits, oldest first. */
  blocks: seq(PeerReportBlockView, REPORT_BLOCKS_MAX),
});
export type PeerReport = Infer<typeof PeerReportView>;

export const PeerInfoView = struct('TelemetryPeerInfo', {
  peerId: string(256),
  /** True for the node answering (listed first); false for its peers. */
  self: bool,
  /** Gateway URL: this node's, or the one a peer gave in its newest report (absent before any report). */
  url: option(string(512)),
  /** P2P `host:port` of a peer (configured, or the remote end of its live connection). */
  address: option(string(512)),
  /** validator | observer | unknown (never connected) */
  role: string(16),
  connected: bool,
  /** Wall-clock ms of the last bytes received from the peer; absent if never heard from. */
  lastSeenMs: option(varuint),
  config: option(PeerConfigView),
  /** Peers the node is connected to: this node's count, or a peer's from its newest report. */
  connectedPeers: option(varuint),
  /** A peer's fresh reports, newest first (at most telemetry.peer_reports_max); absent for this node. */
  reports: option(seq(PeerReportView)),
  /** Reports refused from the peer (malformed, oversize, another version, too frequent); absent for this node. */
  reportsRefused: option(varuint),
});
export type PeerInfo = Infer<typeof PeerInfoView>;

export const PeersInfoView = struct('TelemetryPeersInfo', { items: seq(PeerInfoView), total: varuint });
export type PeersInfo = Infer<typeof PeersInfoView>;

/** One node's sighting of the block: the moment it committed it, by its own clock. */
export const PropagationReportView = struct('TelemetryPropagationReport', {
  peerId: string(256),
  committedAtMs: varuint,
  /** How long ago the peer report carrying it arrived; absent for this node's own sighting. */
  reportAgeMs: option(varuint),
});

export const PropagationView = struct('TelemetryPropagation', {
  /** Newest committed height (0: no block yet). */
  block: varuint,
  /** Its hash (absent before the first block): peers' sightings count only with the same hash. */
  hash: option(Hash),
  /** The block's creation time, from its header (written by its proposer): when the first peer had it. */
  firstSeenAtMs: option(varuint),
  /** The latest commit time among the reports (each by its reporter's clock); absent when there is none. */
  lastSeenAtMs: option(varuint),
  /** last_seen_at_ms - first_seen_at_ms; clocks of different nodes: negative when the proposer's runs ahead. */
  spreadMs: option(varint),
  /** Peers other than this node whose fresh report lists the block. */
  peersReported: varuint,
  /** The sightings behind last_seen_at_ms: this node's own commit time first, then each reporting peer's. */
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
