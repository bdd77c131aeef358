// Everything the network remembers about one configured peer across its connections.
import type { Timer } from '../util/clock.js';
import { formatHostPort, type PeerEntry } from './address.js';
import type { DropReason } from './drops.js';
import type { PeerRole } from './hello.js';
import type { Link } from './link.js';
import type { MessageHandler, PeerInfo } from './types.js';

export class PeerSlot {
  entry: PeerEntry;
  /** The open connection messages go over (at most one: README "One connection per pair"). */
  link: Link | undefined;
  /** The loser of a tie-break, kept open a moment so the other end can switch (network.ts). */
  standby: Link | undefined;
  standbyTimer: Timer | undefined;
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

  info(): PeerInfo {
    const link = this.link?.open === true ? this.link : undefined;
    const addr = this.entry.address;
    return {
      peerId: this.entry.peerId,
      address: addr !== undefined ? formatHostPort(addr) : (link?.remoteAddress ?? ''),
      role: this.role,
      connected: link !== undefined,
      lastSeenMs: Math.max(this.lastSeenMs, link?.lastSeenMs ?? 0),
      bytesIn: this.bytesIn + (link?.bytesIn ?? 0),
      bytesOut: this.bytesOut + (link?.bytesOut ?? 0),
      messagesIn: this.messagesIn,
      messagesOut: this.messagesOut,
      reconnects: this.reconnects,
      errors: this.errors,
      dropped: this.dropped,
      sendQueue: link?.queueDepth ?? 0,
      recvQueue: this.inbound.length,
      sessionId: link?.sessionId ?? '',
      lastDrop: this.lastDrop,
    };
  }

  /**
   * Hands waiting messages to the handlers in order, awaiting a handler's promise before the next
   * message; resumes a paused connection once half of `recvQueueMax` is handled.
   */
  async deliver(
    handlers: readonly MessageHandler[],
    recvQueueMax: number,
    onError: () => void,
  ): Promise<void> {
    this.delivering = true;
    try {
      while (this.inbound.length > 0) {
        const bytes = this.inbound.shift()!;
        for (const h of handlers) {
          try {
            const r = h(this.entry.peerId, bytes);
            if (r instanceof Promise) await r;
          } catch {
            onError();
          }
        }
        if (this.paused !== undefined && this.inbound.length <= recvQueueMax / 2) {
          this.paused.resumeReading();
          this.paused = undefined;
        }
      }
    } finally {
      this.delivering = false;
    }
  }
}
