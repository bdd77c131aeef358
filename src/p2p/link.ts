// One TCP connection to one peer: the Noise XX handshake (@hyperswarm/secret-stream over the
// socket), the key check, the HELLO exchange, frame decoding, the bounded send queue and the
// liveness clock. The network (network.ts) owns links and decides which one a peer keeps.
import type { Socket } from 'node:net';
import SecretStream from '@hyperswarm/secret-stream';
import { publicKeyToText } from '../crypto/keys.js';
import type { Clock, Timer } from '../util/clock.js';
import { toHex } from '../util/hex.js';
import type { DropReason } from './drops.js';
import { encodeFrame, FrameDecoder, FrameType } from './frame.js';
import { decodeHello, encodeHello, type Hello, P2P_PROTOCOL_VERSION, type PeerRole } from './hello.js';

/** Raw bytes a peer may send before the handshake completes (Noise XX messages are < 200 bytes). */
export const HANDSHAKE_BYTES_MAX = 4096;

export interface LinkLimits {
  readonly frameBytesMax: number;
  readonly sendQueueMax: number;
  readonly sendQueueBytesMax: number;
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly idleTimeoutMs: number;
}

export interface LinkHost {
  readonly clock: Clock;
  readonly limits: LinkLimits;
  readonly selfId: string;
  readonly keyPair: { publicKey: Uint8Array; secretKey: Uint8Array };
  readonly hello: Hello;
  /** After the handshake: undefined to accept the remote key, or why it is refused. */
  authorize(link: Link, remoteId: string): DropReason | undefined;
  /** Both HELLOs exchanged: the link may carry messages. */
  opened(link: Link): void;
  message(link: Link, payload: Uint8Array): void;
  closed(link: Link, reason: DropReason, detail: string): void;
}

export type SendOutcome = 'queued' | 'queue_full';

export class Link {
  readonly initiator: boolean;
  /** The peer id this side dialed (initiator) or undefined until the handshake says (listener). */
  remoteId: string | undefined;
  remoteRole: PeerRole | undefined;
  /** Hex of the first 8 bytes of the Noise handshake hash: equal on both ends of one connection. */
  sessionId = '';
  readonly remoteAddress: string;
  open = false;
  closed = false;
  bytesIn = 0;
  bytesOut = 0;
  /** Wall-clock ms of the last bytes received after the handshake (0 = none yet). */
  lastSeenMs = 0;

  readonly #host: LinkHost;
  readonly #socket: Socket;
  readonly #stream: SecretStream;
  readonly #decoder: FrameDecoder;
  #handshakeTimer: Timer | undefined;
  #queue: Uint8Array[] = [];
  #queueBytes = 0;
  #blocked = false;
  #rawBeforeHandshake = 0;
  #lastRecvMono: number;
  #lastSentMono: number;
  #error: string | undefined;
  #socketError = false;
  #readingPaused = false;

  constructor(host: LinkHost, socket: Socket, initiator: boolean, expectedId?: string) {
    this.#host = host;
    this.#socket = socket;
    this.initiator = initiator;
    this.remoteId = expectedId;
    this.remoteAddress = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    this.#decoder = new FrameDecoder(host.limits.frameBytesMax);
    this.#lastRecvMono = this.#lastSentMono = host.clock.monotonicMs();
    socket.setNoDelay(true);
    socket.on('error', (e) => {
      this.#socketError = true;
      this.#error ??= e.message;
    });
    const countRaw = (chunk: Buffer) => {
      this.#rawBeforeHandshake += chunk.length;
      if (this.#rawBeforeHandshake > HANDSHAKE_BYTES_MAX) {
        this.close(
          'handshake_failed',
          `more than ${HANDSHAKE_BYTES_MAX} bytes before the handshake completed`,
        );
      }
    };
    socket.on('data', countRaw);
    this.#handshakeTimer = host.clock.setTimeout(
      () => this.close('handshake_timeout', `no handshake within ${host.limits.handshakeTimeoutMs} ms`),
      host.limits.handshakeTimeoutMs,
    );
    this.#stream = new SecretStream(initiator, socket, { keyPair: host.keyPair, pattern: 'XX' });
    this.#stream.on('error', (e) => {
      this.#error ??= e.message;
    });
    this.#stream.on('connect', () => {
      socket.off('data', countRaw);
      this.#onHandshake();
    });
    this.#stream.on('data', (chunk) => this.#onData(chunk));
    this.#stream.on('drain', () => {
      this.#blocked = false;
      this.#flush();
    });
    this.#stream.on('close', () => {
      // Before the handshake, a socket error (refused, reset) is the path's fault; anything else
      // (the library refused the handshake bytes) is the remote's.
      const handshook = this.#stream.handshakeHash !== null;
      const reason = handshook || this.#socketError ? 'remote_closed' : 'handshake_failed';
      this.close(reason, this.#error ?? 'connection closed');
    });
  }

  get queueDepth(): number {
    return this.#queue.length;
  }

  /** Queues one frame; `queue_full` means the caller must close this link (see README "Limits"). */
  send(type: FrameType, payload: Uint8Array): SendOutcome {
    if (this.closed) return 'queued';
    const frame = encodeFrame(type, payload);
    const l = this.#host.limits;
    if (this.#queue.length >= l.sendQueueMax || this.#queueBytes + frame.length > l.sendQueueBytesMax) {
      return 'queue_full';
    }
    this.#queue.push(frame);
    this.#queueBytes += frame.length;
    this.#flush();
    return 'queued';
  }

  pauseReading(): void {
    this.#readingPaused = true;
    this.#stream.pause();
  }

  resumeReading(): void {
    this.#readingPaused = false;
    this.#lastRecvMono = this.#host.clock.monotonicMs();
    if (!this.closed) this.#stream.resume();
  }

  /** Liveness: a ping when nothing was sent for a ping interval; closes after the idle timeout. */
  tick(): void {
    if (!this.open || this.closed) return;
    const now = this.#host.clock.monotonicMs();
    const l = this.#host.limits;
    // While this side has stopped reading (its handlers are behind), silence is not the peer's.
    if (this.#readingPaused) this.#lastRecvMono = now;
    if (now - this.#lastRecvMono >= l.idleTimeoutMs) {
      this.close('idle_timeout', `nothing received for ${l.idleTimeoutMs} ms`);
      return;
    }
    if (now - this.#lastSentMono >= l.pingIntervalMs) this.ping();
  }

  ping(): void {
    if (this.open && !this.closed && this.#queue.length === 0) this.send(FrameType.Ping, new Uint8Array(0));
  }

  /** Idempotent; reports the first reason only. */
  close(reason: DropReason, detail: string): void {
    if (this.closed) return;
    this.closed = true;
    this.open = false;
    this.#handshakeTimer?.cancel();
    this.#queue = [];
    this.#queueBytes = 0;
    this.#stream.destroy();
    this.#socket.destroy();
    this.#host.closed(this, reason, detail);
  }

  #onHandshake(): void {
    if (this.closed) return;
    const remoteKey = this.#stream.remotePublicKey;
    const hash = this.#stream.handshakeHash;
    if (remoteKey === null || hash === null) {
      this.close('handshake_failed', 'handshake completed without a remote key');
      return;
    }
    this.sessionId = toHex(hash.subarray(0, 8));
    const remoteId = publicKeyToText({ algorithm: 'ed25519', bytes: new Uint8Array(remoteKey) });
    const refused = this.#host.authorize(this, remoteId);
    if (refused !== undefined) {
      this.close(refused, `remote key ${remoteId}`);
      return;
    }
    this.remoteId = remoteId;
    this.#write(encodeFrame(FrameType.Hello, encodeHello(this.#host.hello)));
  }

  #onData(chunk: Uint8Array): void {
    if (this.closed) return;
    this.bytesIn += chunk.length;
    this.#lastRecvMono = this.#host.clock.monotonicMs();
    this.lastSeenMs = this.#host.clock.nowMs();
    const frames = this.#decoder.push(chunk);
    if (!Array.isArray(frames)) {
      this.close(frames.fault, frames.detail);
      return;
    }
    for (const f of frames) {
      if (this.closed) return;
      if (!this.open) {
        const hello = f.type === FrameType.Hello ? decodeHello(f.payload) : undefined;
        if (hello === undefined) {
          this.close('garbage', 'first frame is not a valid HELLO');
          return;
        }
        const mine = this.#host.hello;
        if (hello.version !== P2P_PROTOCOL_VERSION || hello.networkId !== mine.networkId) {
          this.close(
            'hello_mismatch',
            `remote speaks version ${hello.version} on network '${hello.networkId}'`,
          );
          return;
        }
        this.remoteRole = hello.role;
        this.open = true;
        this.#handshakeTimer?.cancel();
        this.#handshakeTimer = undefined;
        this.#host.opened(this);
      } else if (f.type === FrameType.Message) {
        this.#host.message(this, f.payload);
      } else if (f.type === FrameType.Hello) {
        this.close('garbage', 'second HELLO');
        return;
      }
      // Ping: receiving it refreshed the liveness clock; nothing else to do.
    }
  }

  #flush(): void {
    while (!this.#blocked && this.#queue.length > 0 && !this.closed) {
      const frame = this.#queue.shift()!;
      this.#queueBytes -= frame.length;
      this.#write(frame);
    }
  }

  #write(frame: Uint8Array): void {
    this.bytesOut += frame.length;
    this.#lastSentMono = this.#host.clock.monotonicMs();
    if (!this.#stream.write(frame)) this.#blocked = true;
  }
}
