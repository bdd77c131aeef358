// What the telemetry family needs from the node (gateway/family.ts "port"): this node's identity and
// gateway address, its peers as the p2p layer sees them, and the committed chain. node/telemetry-port.ts
// adapts the node; nothing here reaches past this interface.

/** This node, as it describes itself in peers-info. */
export interface TelemetrySelf {
  /** The node's public key text (`ed0120…`), its peer id on the p2p layer. */
  peerId: string;
  /** `http://host:port` of this gateway. */
  url: string;
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
  /** The creation time its proposer wrote in the header of the committed block at `height`. */
  blockCreatedAtMs(height: number): Promise<number | undefined>;
  /** Calls `fn(height)` as each block commits on this node (synchronously, at commit); returns the unsubscribe. */
  onBlockCommitted(fn: (height: number) => void): () => void;
  nowMs(): number;
}
