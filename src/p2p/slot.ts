// Everything the network remembers about one configured peer across its connections.
import type { Clock, Timer } from '../util/clock.js';
import { formatHostPort, type PeerEntry } from './address.js';
import { type DropReason, dropCountsAsError } from './drops.js';
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
  /**
   * The connections whose reading is paused because `inbound` reached its cap: every connection of
   * the peer that delivers past it (the one in use, a parked one, a newer one after a redial), so the
   * cap holds whichever of them the peer sends on.
   */
  readonly paused = new Set<Link>();

  constructor(entry: PeerEntry) {
    this.entry = entry;
  }

  info(): PeerInfo {
    const link = this.link?.open === true ? this.link : undefined;
    const addr = this.entry.address;
    // A parked connection still delivers what arrives on it, so its traffic counts too.
    const parked = this.standby !== undefined && this.standby !== this.link ? this.standby : undefined;
    return {
      peerId: this.entry.peerId,
      address: addr !== undefined ? formatHostPort(addr) : (link?.remoteAddress ?? ''),
      role: this.role,
      connected: link !== undefined,
      lastSeenMs: Math.max(this.lastSeenMs, link?.lastSeenMs ?? 0),
      bytesIn: this.bytesIn + (link?.bytesIn ?? 0) + (parked?.bytesIn ?? 0),
      bytesOut: this.bytesOut + (link?.bytesOut ?? 0) + (parked?.bytesOut ?? 0),
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
   * message; resumes the paused connections once half of `recvQueueMax` is handled.
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
        if (this.paused.size > 0 && this.inbound.length <= recvQueueMax / 2) {
          for (const l of this.paused) l.resumeReading();
          this.paused.clear();
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  /**
   * A connection to this peer completed its HELLO. With another open, `keeps` (tie-break.ts)
   * picks the one to use and the other is parked (see `#park`). Answers true when the peer has
   * just come up (to announce).
   */
  adopt(
    link: Link,
    keeps: (current: Link, incoming: Link) => boolean,
    clock: Clock,
    graceMs: number,
  ): boolean {
    if (this.dialing === link) this.dialing = undefined;
    const current = this.link;
    if (current !== undefined && current !== link && !current.closed) {
      if (keeps(current, link)) {
        this.#park(link, clock, graceMs);
        // The kept one may be stale (the remote restarted and dialed anew): probe it now.
        current.ping();
        return false;
      }
      this.link = link;
      this.#park(current, clock, graceMs);
    } else {
      this.link = link;
    }
    this.redial?.cancel();
    this.redial = undefined;
    this.attempt = 0;
    this.role = link.remoteRole ?? this.role;
    this.lastSeenMs = clock.nowMs();
    if (this.announcedUp) return false;
    if (this.everConnected) this.reconnects++;
    this.everConnected = true;
    this.announcedUp = true;
    return true;
  }

  /**
   * A connection to this peer ended. A parked one takes the place of the one in use. Answers true
   * when the peer has just gone down (to announce).
   */
  release(link: Link, reason: DropReason): boolean {
    this.bytesIn += link.bytesIn;
    this.bytesOut += link.bytesOut;
    if (dropCountsAsError(reason)) this.errors++;
    if (reason !== 'duplicate') this.lastDrop = reason;
    this.paused.delete(link);
    if (this.dialing === link) this.dialing = undefined;
    if (this.standby === link) this.#unpark();
    if (this.link !== link) return false;
    this.link = undefined;
    const parked = this.standby;
    if (parked?.open === true) {
      this.#unpark();
      this.link = parked;
      return false;
    }
    if (!this.announcedUp) return false;
    this.announcedUp = false;
    return true;
  }

  /** Cancels the redial and closes every connection to this peer. */
  closeAll(reason: DropReason, detail: string): void {
    this.redial?.cancel();
    this.redial = undefined;
    const links = [this.standby, this.link, this.dialing];
    this.#unpark();
    for (const l of links) l?.close(reason, detail);
  }

  /**
   * Parks the loser of a tie-break: nothing is sent on it, what arrives on it is still delivered,
   * and it is closed as `duplicate` after `graceMs`, by when the other end has opened the winner
   * too. Closing it at once could close the only connection the other end has open yet (the
   * winner's HELLO may still be on its way), a drop that is not one.
   */
  #park(link: Link, clock: Clock, graceMs: number): void {
    if (this.standby !== undefined && this.standby !== link) {
      this.standby.close('duplicate', 'a newer connection lost the tie-break');
    }
    this.#unpark();
    this.standby = link;
    this.standbyTimer = clock.setTimeout(() => {
      if (this.standby !== link) return;
      this.#unpark();
      link.close('duplicate', 'lost the tie-break to another connection to this peer');
    }, graceMs);
  }

  #unpark(): void {
    this.standby = undefined;
    this.standbyTimer?.cancel();
    this.standbyTimer = undefined;
  }
}
