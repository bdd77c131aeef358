// Why a connection ended. Each reason has a counter in `PeerNetwork.stats().drops`; the ones that
// blame the remote (or the path to it) also count in its `PeerInfo.errors`.
export const DROP_REASONS = [
  /** The remote's static key is not in `network.peers`. */
  'unknown_key',
  /** A dialed address answered with another configured peer's key. */
  'wrong_key',
  /** The Noise handshake failed (bad bytes, too many bytes before it completed, closed mid-way). */
  'handshake_failed',
  /** No handshake and HELLO within `network.handshake_timeout_ms`. */
  'handshake_timeout',
  /** The HELLO named another protocol version or network id. */
  'hello_mismatch',
  /** A frame of length 0, an unknown frame type, a missing/second HELLO, or a message the layer above refused. */
  'garbage',
  /** A frame longer than `network.frame_bytes_max`. */
  'oversize',
  /** The send queue reached `network.send_queue_max` or `network.send_queue_bytes_max` (the peer does not read). */
  'send_queue_full',
  /** Nothing received within `network.idle_timeout_ms`. */
  'idle_timeout',
  /** A second connection to the same peer lost the tie-break (README "One connection per pair"). */
  'duplicate',
  /** The remote or the path closed the connection, or connecting failed. */
  'remote_closed',
  /** Too many connections (not from a configured peer's address) were still in their handshake. */
  'too_many_pending',
  /** Too many connections from one source address were still in their handshake. */
  'too_many_pending_from_address',
  /** This node stopped. */
  'stopped',
  /** The peer was taken out of the peer list (`setPeers`). */
  'removed',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

const NOT_ERRORS: ReadonlySet<DropReason> = new Set(['duplicate', 'stopped', 'removed']);

export function dropCountsAsError(reason: DropReason): boolean {
  return !NOT_ERRORS.has(reason);
}
