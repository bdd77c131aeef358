// What the telemetry family needs from the node (gateway/family.ts "port"): this node's identity and
// gateway address, its peers as the p2p layer sees them, the committed chain, and the p2p channel its
// reports travel on (telemetry/report-codec.ts). node/telemetry-port.ts adapts the node; nothing here
// reaches past this interface.

/** This node, as it describes itself in peers-info. */
export interface TelemetrySelf {
  /** The node's public key text (`ed0120…`), its peer id on the p2p layer. */
  peerId: string;
  /** This gateway's URL: `telemetry.gateway_url`, else `http://host:port` of its listener. */
  url: string;
  /** The URL given to peers in reports: as `url`, but absent when the listener's host is a wildcard. */
  reportedUrl?: string;
  /** Software version (`torana/<package version>`). */
  version: string;
  chainId: string;
  /** `network.role`: `validator` or `observer`. */
  role: string;
  /** The consensus engine running: `single-peer` or `bft`. */
  consensus: string;
}

/** One configured peer with the p2p layer's live state of it. */
export interface TelemetryPeer {
  peerId: string;
  /** Configured dial address, else the remote address of the live connection, else ''. */
  address: string;
  /** What the peer announced in its HELLO; `unknown` before it first connected. */
  role: string;
  connected: boolean;
  /** Wall-clock ms of the last bytes received from it (pings included); 0 = never. */
  lastSeenMs: number;
}

export interface TelemetryPort {
  self(): TelemetrySelf;
  /** Every configured peer (this node excluded); empty for a lone node. */
  peers(): readonly TelemetryPeer[];
  /** Newest committed height (0 before the first block). */
  height(): number;
  /** The committed block at `height`: the creation time its proposer wrote in the header, and its hash (hex). */
  blockAt(height: number): Promise<{ createdAtMs: number; hash: string } | undefined>;
  /** Calls `fn(height, hash)` as each block commits on this node (synchronously, at commit); returns the unsubscribe. */
  onBlockCommitted(fn: (height: number, hash: string) => void): () => void;
  /** Transactions waiting in this node's queue. */
  queueDepth(): number;
  /** Sends a telemetry message to every connected peer; answers how many were queued. */
  broadcast(bytes: Uint8Array): number;
  /**
   * Calls `fn` with each telemetry message (report-codec.ts `isReportMessage`) a peer sends, the sender
   * authenticated by the p2p layer; other p2p messages never reach it. Returns the unsubscribe.
   */
  onPeerMessage(fn: (fromPeerId: string, bytes: Uint8Array) => void): () => void;
  nowMs(): number;
}
