// The shapes PeerNetwork hands out: per-peer state, events, counters, send outcomes.
import type { DropReason } from './drops.js';
import type { PeerRole } from './hello.js';

export interface PeerInfo {
  readonly peerId: string;
  /** Configured dial address, else the remote address of the live connection, else ''. */
  readonly address: string;
  /** What the peer said in its HELLO; 'unknown' before the first connection. */
  readonly role: PeerRole | 'unknown';
  readonly connected: boolean;
  /** Wall-clock ms of the last bytes received from it, pings included (0 = never). */
  readonly lastSeenMs: number;
  /** Frame bytes (headers included, before encryption) over every connection so far. */
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly messagesIn: number;
  readonly messagesOut: number;
  /** Connections established after the first one. */
  readonly reconnects: number;
  /** Connections ended by a reason that blames the remote or the path (drops.ts). */
  readonly errors: number;
  /** Messages refused by `send` (not connected or queue overflow). */
  readonly dropped: number;
  readonly sendQueue: number;
  readonly recvQueue: number;
  /** Equal on both ends of the live connection; '' when not connected. */
  readonly sessionId: string;
  readonly lastDrop: DropReason | '';
}

export interface PeerStateEvent {
  readonly peerId: string;
  readonly connected: boolean;
  readonly reason?: DropReason;
}

export interface NetworkStats {
  readonly drops: Readonly<Record<DropReason, number>>;
  readonly pendingHandshakes: number;
  readonly handlerErrors: number;
}

export type SendResult = 'queued' | 'not_connected' | 'unknown_peer' | 'too_large' | 'queue_full';
export type MessageHandler = (fromPeerId: string, bytes: Uint8Array) => void | Promise<void>;
