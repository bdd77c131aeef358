// Typed errors of the peer transport. Bytes from the network never throw out of this folder: a peer
// that sends garbage is disconnected and counted (see `DropReason`). These errors are for local
// misuse: a malformed peer list or listen address in the configuration, options out of range.

export type P2pErrorCode =
  /** A `network.peers` entry is not `ed0120<64 hex>` or `ed0120<64 hex>@host:port`, or repeats a key. */
  | 'p2p_invalid_peer'
  /** `network.listen` (or a peer's address) is not `host:port` with a port in 0..65535. */
  | 'p2p_invalid_address'
  /** A numeric option is outside its bounds or two options contradict each other. */
  | 'p2p_invalid_options'
  /** The listen address could not be bound (in use, not local, no permission); `cause` has the system error. */
  | 'p2p_listen_failed'
  /** `start()` was called twice, or after `stop()`. */
  | 'p2p_state';

export class P2pError extends Error {
  override readonly name = 'P2pError';
  constructor(
    readonly code: P2pErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isP2pError(e: unknown): e is P2pError {
  return e instanceof P2pError;
}
