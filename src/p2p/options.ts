// The numeric limits of the peer transport, named as the `network.*` configuration keys are
// (camelCase), so the composition root can pass `config.network` through. Checked once here so a
// caller outside the configuration loader (tests, tools) gets a clear error instead of a hang.
import type { Ed25519KeyPair } from '../crypto/signer.js';
import type { Clock } from '../util/clock.js';
import { P2pError } from './errors.js';
import type { PeerRole } from './hello.js';

/** Largest frame the transport can carry: the encrypted stream's own message cap (2^24 - 1) less headroom. */
export const FRAME_BYTES_CEILING = 16 * 1024 * 1024 - 1024;

export interface NetworkLimits {
  /** Largest frame (1 type byte + message) sent or accepted. */
  readonly frameBytesMax: number;
  /** Messages waiting to be written to one peer; past it the peer is disconnected. */
  readonly sendQueueMax: number;
  /** Bytes waiting to be written to one peer; past it the peer is disconnected. */
  readonly sendQueueBytesMax: number;
  /** Messages received from one peer and not yet handled; past it its socket is paused. */
  readonly recvQueueMax: number;
  readonly reconnectBaseMs: number;
  readonly reconnectMaxMs: number;
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly idleTimeoutMs: number;
}

export function checkOptions(o: NetworkLimits): void {
  const positive: (keyof NetworkLimits)[] = [
    'frameBytesMax',
    'sendQueueMax',
    'sendQueueBytesMax',
    'recvQueueMax',
    'reconnectBaseMs',
    'reconnectMaxMs',
    'handshakeTimeoutMs',
    'pingIntervalMs',
    'idleTimeoutMs',
  ];
  for (const k of positive) {
    const v = o[k];
    if (!Number.isSafeInteger(v) || v < 1) {
      throw new P2pError('p2p_invalid_options', `${k} must be a positive integer, got ${String(v)}`);
    }
  }
  if (o.frameBytesMax > FRAME_BYTES_CEILING) {
    throw new P2pError('p2p_invalid_options', `frameBytesMax must be at most ${FRAME_BYTES_CEILING}`);
  }
  if (o.reconnectBaseMs > o.reconnectMaxMs) {
    throw new P2pError('p2p_invalid_options', 'reconnectBaseMs must be at most reconnectMaxMs');
  }
  if (o.pingIntervalMs > o.idleTimeoutMs) {
    throw new P2pError('p2p_invalid_options', 'pingIntervalMs must be at most idleTimeoutMs');
  }
  if (o.sendQueueBytesMax < o.frameBytesMax) {
    throw new P2pError('p2p_invalid_options', 'sendQueueBytesMax must hold at least one largest frame');
  }
}

export interface PeerNetworkOptions extends NetworkLimits {
  readonly keyPair: Ed25519KeyPair;
  readonly clock: Clock;
  /** `host:port` to accept peers on; '' = no listener. */
  readonly listen: string;
  /** `network.peers` entries (address.ts). */
  readonly peers: readonly string[];
  readonly role: PeerRole;
  /** Carried in HELLO; a peer on another network id is refused. The chain id. */
  readonly networkId?: string;
  /**
   * `network.handshakes_per_address_max`: inbound handshakes one source address may have pending at
   * once, per configured peer at that address (at least one); default HANDSHAKES_PER_ADDRESS_DEFAULT.
   */
  readonly handshakesPerAddressMax?: number;
  /** Jitter seed for reconnect delays; defaults to the node's public key. */
  readonly jitterSeed?: Uint8Array;
}
