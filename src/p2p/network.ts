// PeerNetwork: authenticated, encrypted connections to the configured peers (src/p2p/README.md).
// Delivers `(fromPeerId, bytes)` to the layer above; what the bytes mean is not this folder's
// business. Timers go through the injected Clock; reconnect jitter comes from a seeded hash.
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import type { Timer } from '../util/clock.js';
import { formatHostPort, type HostPort, type PeerEntry, parseListen, parsePeerEntries } from './address.js';
import { reconnectDelayMs } from './backoff.js';
import { DROP_REASONS, type DropReason } from './drops.js';
import { P2pError } from './errors.js';
import { FrameType } from './frame.js';
import { NETWORK_ID_BYTES_MAX, P2P_PROTOCOL_VERSION } from './hello.js';
import { Link, type LinkHost, type LinkLimits } from './link.js';
import { checkOptions, type PeerNetworkOptions } from './options.js';
import { PeerSlot } from './slot.js';
import { keepsCurrent } from './tie-break.js';
import type { MessageHandler, NetworkStats, PeerInfo, PeerStateEvent, SendResult } from './types.js';

/** Inbound connections still in their handshake at once; more are closed on arrival. */
export const PENDING_HANDSHAKES_MAX = 64;
/** Default of `network.handshakes_per_address_max`. */
export const HANDSHAKES_PER_ADDRESS_DEFAULT = 4;

/** The source address of an inbound socket, an IPv4-mapped IPv6 address as its IPv4 form. */
function sourceOf(socket: Socket): string {
  const a = socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a.toLowerCase();
}

/** A pending inbound handshake: where it comes from, and whether it sits in the reserved share. */
interface Pending {
  source: string;
  reserved: boolean;
}

export class PeerNetwork {
  readonly selfId: string;
  readonly #o: PeerNetworkOptions;
  readonly #listen: HostPort | undefined;
  readonly #slots = new Map<string, PeerSlot>();
  /**
   * Inbound links still in their handshake. Unauthenticated, so bounded three ways: per source address
   * (`handshakesPerAddressMax`, times the configured peers at that address), PENDING_HANDSHAKES_MAX in
   * the shared share, and apart from it a reserved share for the addresses of configured peers, so
   * idle connections from elsewhere cannot keep the configured peers out.
   */
  readonly #pending = new Map<Link, Pending>();
  readonly #pendingBySource = new Map<string, number>();
  #pendingShared = 0;
  readonly #linkHost: LinkHost;
  readonly #drops = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>;
  readonly #messageHandlers: MessageHandler[] = [];
  readonly #stateHandlers: ((e: PeerStateEvent) => void)[] = [];
  #server: Server | undefined;
  #tickTimer: Timer | undefined;
  #state: 'new' | 'started' | 'stopped' = 'new';
  #handlerErrors = 0;
  #bound: HostPort | undefined;

  constructor(o: PeerNetworkOptions) {
    checkOptions(o);
    const networkId = o.networkId ?? '';
    if (new TextEncoder().encode(networkId).length > NETWORK_ID_BYTES_MAX) {
      throw new P2pError('p2p_invalid_options', `network id longer than ${NETWORK_ID_BYTES_MAX} bytes`);
    }
    this.#o = o;
    this.selfId = o.keyPair.publicKeyText();
    this.#listen = parseListen(o.listen);
    for (const e of parsePeerEntries(o.peers, this.selfId)) this.#slots.set(e.peerId, new PeerSlot(e));
    const limits: LinkLimits = o;
    this.#linkHost = {
      clock: o.clock,
      limits,
      selfId: this.selfId,
      keyPair: o.keyPair.handshakeKeyPair(),
      hello: { version: P2P_PROTOCOL_VERSION, role: o.role, networkId },
      authorize: (link, remoteId) => this.#authorize(link, remoteId),
      opened: (link) => this.#opened(link),
      message: (link, payload) => this.#message(link, payload),
      closed: (link, reason, detail) => this.#closed(link, reason, detail),
    };
  }

  /** Listens (when `listen` is set) and dials every peer with an address. */
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new P2pError('p2p_state', `start() on a ${this.#state} network`);
    this.#state = 'started';
    if (this.#listen !== undefined) {
      const server = createServer((socket) => this.#accept(socket));
      this.#server = server;
      const at = this.#listen;
      await new Promise<void>((resolve, reject) => {
        const fail = (e: Error) => {
          this.#state = 'stopped';
          reject(
            new P2pError('p2p_listen_failed', `cannot listen on ${formatHostPort(at)}: ${e.message}`, {
              cause: e,
            }),
          );
        };
        server.once('error', fail);
        server.listen(at.port, at.host, () => {
          server.off('error', fail);
          resolve();
        });
      });
      server.on('error', () => {});
      const a = server.address();
      if (a !== null && typeof a === 'object') this.#bound = { host: at.host, port: a.port };
    }
    for (const slot of this.#slots.values()) if (slot.entry.address !== undefined) this.#dial(slot);
    this.#scheduleTick();
  }

  /** Closes every connection and the listener; queued messages are dropped. */
  async stop(): Promise<void> {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    this.#tickTimer?.cancel();
    for (const slot of this.#slots.values()) slot.closeAll('stopped', 'network stopped');
    for (const l of [...this.#pending.keys()]) l.close('stopped', 'network stopped');
    const server = this.#server;
    if (server !== undefined) await new Promise<void>((r) => server.close(() => r()));
  }

  /**
   * Replaces the peer list (a roster change): removed peers are disconnected (`removed`) and their
   * slots forgotten, new ones are dialed, kept ones keep their connection and counters (a changed
   * address applies from the next dial). Throws `p2p_invalid_peer` and changes nothing on a bad list.
   */
  setPeers(peers: readonly string[]): void {
    const entries = parsePeerEntries(peers, this.selfId);
    const wanted = new Map(entries.map((e) => [e.peerId, e]));
    for (const [id, slot] of [...this.#slots]) {
      if (wanted.has(id)) continue;
      this.#slots.delete(id);
      slot.closeAll('removed', 'peer removed from the peer list');
    }
    for (const e of entries) {
      const slot = this.#slots.get(e.peerId);
      if (slot !== undefined) {
        slot.entry = e;
        continue;
      }
      const fresh = new PeerSlot(e);
      this.#slots.set(e.peerId, fresh);
      if (this.#state === 'started' && e.address !== undefined) this.#dial(fresh);
    }
  }

  /** The bound listen address (the real port when `listen` asked for port 0). */
  listenAddress(): string | undefined {
    return this.#bound === undefined ? undefined : formatHostPort(this.#bound);
  }

  send(peerId: string, bytes: Uint8Array): SendResult {
    const slot = this.#slots.get(peerId);
    if (slot === undefined) return 'unknown_peer';
    if (bytes.length + 1 > this.#o.frameBytesMax) {
      slot.dropped++;
      return 'too_large';
    }
    const link = slot.link;
    if (link === undefined || !link.open) {
      slot.dropped++;
      return 'not_connected';
    }
    if (link.send(FrameType.Message, bytes) === 'queue_full') {
      slot.dropped++;
      link.close('send_queue_full', `send queue of ${link.queueDepth} messages full`);
      return 'queue_full';
    }
    slot.messagesOut++;
    return 'queued';
  }

  /** Sends to every connected peer the filter accepts; answers how many were queued. */
  broadcast(bytes: Uint8Array, filter?: (p: PeerInfo) => boolean): number {
    let n = 0;
    for (const slot of this.#slots.values()) {
      if (slot.link?.open !== true) continue;
      if (filter !== undefined && !filter(slot.info())) continue;
      if (this.send(slot.entry.peerId, bytes) === 'queued') n++;
    }
    return n;
  }

  /**
   * Messages, in order per peer. A handler that returns a promise holds back that peer's next
   * message until it settles; past `recvQueueMax` waiting messages the peer's socket is paused.
   */
  onMessage(fn: MessageHandler): void {
    this.#messageHandlers.push(fn);
  }

  onPeerState(fn: (e: PeerStateEvent) => void): void {
    this.#stateHandlers.push(fn);
  }

  /** The layer above could not decode a peer's message: disconnect it and count `garbage`. */
  reportGarbage(peerId: string, detail: string): void {
    this.#slots.get(peerId)?.link?.close('garbage', detail);
  }

  peers(): PeerInfo[] {
    return [...this.#slots.values()].map((s) => s.info()).sort((a, b) => (a.peerId < b.peerId ? -1 : 1));
  }

  stats(): NetworkStats {
    return {
      drops: { ...this.#drops },
      pendingHandshakes: this.#pending.size,
      handlerErrors: this.#handlerErrors,
    };
  }

  #accept(socket: Socket): void {
    if (this.#state !== 'started') {
      socket.destroy();
      return;
    }
    socket.on('error', () => {});
    const source = sourceOf(socket);
    const peersThere = this.#configuredAt(source);
    const perAddress =
      (this.#o.handshakesPerAddressMax ?? HANDSHAKES_PER_ADDRESS_DEFAULT) * Math.max(1, peersThere);
    if ((this.#pendingBySource.get(source) ?? 0) >= perAddress) {
      this.#drops.too_many_pending_from_address++;
      socket.destroy();
      return;
    }
    const reserved = peersThere > 0;
    if (!reserved && this.#pendingShared >= PENDING_HANDSHAKES_MAX) {
      this.#drops.too_many_pending++;
      socket.destroy();
      return;
    }
    const link = new Link(this.#linkHost, socket, false);
    if (link.closed) return;
    this.#pending.set(link, { source, reserved });
    this.#pendingBySource.set(source, (this.#pendingBySource.get(source) ?? 0) + 1);
    if (!reserved) this.#pendingShared++;
  }

  /** How many configured peers have `source` as the host of their address (0: not a configured address). */
  #configuredAt(source: string): number {
    let n = 0;
    for (const slot of this.#slots.values()) {
      const host = slot.entry.address?.host.toLowerCase();
      if (host !== undefined && (host === source || (host === 'localhost' && source === '127.0.0.1'))) n++;
    }
    return n;
  }

  /** Forgets a link's pending handshake (it opened or closed). */
  #unpend(link: Link): void {
    const p = this.#pending.get(link);
    if (p === undefined) return;
    this.#pending.delete(link);
    const left = (this.#pendingBySource.get(p.source) ?? 1) - 1;
    if (left > 0) this.#pendingBySource.set(p.source, left);
    else this.#pendingBySource.delete(p.source);
    if (!p.reserved) this.#pendingShared--;
  }

  #dial(slot: PeerSlot): void {
    slot.redial = undefined;
    const addr = slot.entry.address;
    if (this.#state !== 'started' || addr === undefined) return;
    if (slot.dialing !== undefined || slot.link?.open === true) return;
    const socket = netConnect({ host: addr.host, port: addr.port });
    socket.on('error', () => {});
    slot.dialing = new Link(this.#linkHost, socket, true, slot.entry.peerId);
  }

  #scheduleRedial(slot: PeerSlot): void {
    if (this.#state !== 'started' || slot.entry.address === undefined) return;
    if (slot.redial !== undefined || slot.dialing !== undefined || slot.link !== undefined) return;
    const o = this.#o;
    const policy = {
      baseMs: o.reconnectBaseMs,
      maxMs: o.reconnectMaxMs,
      seed: o.jitterSeed ?? o.keyPair.publicKey.bytes,
    };
    const delay = reconnectDelayMs(policy, slot.entry.peerId, slot.attempt);
    slot.attempt++;
    slot.redial = o.clock.setTimeout(() => this.#dial(slot), delay);
  }

  #scheduleTick(): void {
    if (this.#state !== 'started') return;
    this.#tickTimer = this.#o.clock.setTimeout(
      () => {
        for (const slot of this.#slots.values()) slot.link?.tick();
        this.#scheduleTick();
      },
      Math.max(1, Math.floor(this.#o.pingIntervalMs / 2)),
    );
  }

  #authorize(link: Link, remoteId: string): DropReason | undefined {
    if (link.initiator) {
      if (remoteId === link.remoteId) return undefined;
      return this.#slots.has(remoteId) ? 'wrong_key' : 'unknown_key';
    }
    return this.#slots.has(remoteId) && remoteId !== this.selfId ? undefined : 'unknown_key';
  }

  #opened(link: Link): void {
    this.#unpend(link);
    const slot = this.#slots.get(link.remoteId ?? '');
    if (slot === undefined) {
      link.close('unknown_key', 'opened without a slot');
      return;
    }
    const keeps = (current: Link, incoming: Link) => this.#keeps(current, incoming);
    if (slot.adopt(link, keeps, this.#o.clock, this.#o.handshakeTimeoutMs)) {
      this.#emitState({ peerId: slot.entry.peerId, connected: true });
    }
  }

  /** Whether `current` stays when `incoming` opens to the same peer (tie-break.ts). */
  #keeps(current: Link, incoming: Link): boolean {
    const dialer = (l: Link) => (l.initiator ? this.#o.keyPair.publicKey.bytes : undefined);
    const remote = this.#slots.get(incoming.remoteId ?? '')!.entry.publicKey;
    return keepsCurrent(this.#o.keyPair.publicKey.bytes, remote, {
      currentDialer: dialer(current) ?? remote,
      incomingDialer: dialer(incoming) ?? remote,
    });
  }

  #message(link: Link, payload: Uint8Array): void {
    const slot = this.#slots.get(link.remoteId ?? '');
    if (slot === undefined) return;
    slot.messagesIn++;
    slot.lastSeenMs = this.#o.clock.nowMs();
    slot.inbound.push(payload);
    if (slot.inbound.length >= this.#o.recvQueueMax && !slot.paused.has(link)) {
      slot.paused.add(link);
      link.pauseReading();
    }
    if (!slot.delivering) {
      void slot.deliver(this.#messageHandlers, this.#o.recvQueueMax, () => {
        this.#handlerErrors++;
      });
    }
  }

  #closed(link: Link, reason: DropReason, detail: string): void {
    void detail;
    this.#drops[reason]++;
    this.#unpend(link);
    const slot = link.remoteId === undefined ? undefined : this.#slots.get(link.remoteId);
    if (slot === undefined) return;
    if (slot.release(link, reason)) this.#emitState({ peerId: slot.entry.peerId, connected: false, reason });
    this.#scheduleRedial(slot);
  }

  #emitState(e: PeerStateEvent): void {
    for (const h of this.#stateHandlers) {
      try {
        h(e);
      } catch {
        this.#handlerErrors++;
      }
    }
  }
}

export type {
  MessageHandler,
  NetworkStats,
  PeerEntry,
  PeerInfo,
  PeerNetworkOptions,
  PeerStateEvent,
  SendResult,
};
