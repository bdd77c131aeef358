// One connection per pair (README "One connection per pair"). When a second connection to a peer
// opens while one is open, both ends must keep the same one without talking about it:
//   1. the connection dialed by the smaller public key (byte order) wins;
//   2. between two dialed by the same node, the newer wins (that node gave up on the older).
// Both ends see the same two dialers and order the same two keys the same way, so they agree.
import { bytesEqual, compareBytes } from '../util/hex.js';

export interface Dialers {
  /** Public key of the node that dialed the open connection. */
  readonly currentDialer: Uint8Array;
  /** Public key of the node that dialed the connection that just opened. */
  readonly incomingDialer: Uint8Array;
}

/** True when the open connection stays and the incoming one is closed as `duplicate`. */
export function keepsCurrent(selfKey: Uint8Array, remoteKey: Uint8Array, d: Dialers): boolean {
  if (bytesEqual(d.currentDialer, d.incomingDialer)) return false;
  const smaller = compareBytes(selfKey, remoteKey) < 0 ? selfKey : remoteKey;
  return bytesEqual(d.currentDialer, smaller);
}
