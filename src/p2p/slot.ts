// Everything the network remembers about one configured peer across its connections.
import type { Timer } from '../util/clock.js';
import type { PeerEntry } from './address.js';
import type { DropReason } from './drops.js';
import type { PeerRole } from './hello.js';
import type { Link } from './link.js';

export class PeerSlot {
  entry: PeerEntry;
  /** The open connection messages go over (at most one: README "One connection per pair"). */
  link: Link | undefined;
  /** An outbound connection in its handshake. */
  dialing: Link | undefined;
  redial: Timer | undefined;
  /** Failed or lost connections since the last success: the backoff exponent. */
  attempt = 0;
  everConnected = false;
  announcedUp = false;
  role: PeerRole | 'unknown' = 'unknown';
  lastSeenMs = 0;
  bytesIn = 0;
  bytesOut = 0;
  messagesIn = 0;
  messagesOut = 0;
  reconnects = 0;
  errors = 0;
  dropped = 0;
  lastDrop: DropReason | '' = '';
  /** Received messages not yet handed to the handlers, in arrival order. */
  readonly inbound: Uint8Array[] = [];
  delivering = false;
  /** The connection whose reading is paused because `inbound` reached its cap. */
  paused: Link | undefined;

  constructor(entry: PeerEntry) {
    this.entry = entry;
  }
}
