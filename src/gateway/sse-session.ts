// One SSE subscriber on a hijacked response: replay-then-live handoff, the bounded queue and the
// lagged / gone / shutdown endings. The rules are described in sse.ts.
// Once the response head is out, the session writes straight to the socket, framing each write as one
// chunk of the response's chunked transfer coding itself (RFC 9112 §7.1) when the response uses it: a
// batch of live events arrives with its bytes already built for every subscriber of the batch, so a
// subscriber that keeps up costs one socket write per batch, and nothing is encoded or copied per
// subscriber. Only the end of the response (`res.end()`, the last chunk) goes through the response.
// On a pipelined HTTP/1.1 connection the response gets its socket only once the previous response has
// finished (until then `res.socket` is null, or still serves that response): writes then go through
// `res.write`, which frames and buffers them in order and flushes them when the socket is assigned.

import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type EventBatch, httpChunk } from './event-batch.js';
import { formatControl, formatEvent, HEARTBEAT_FRAME, type StreamEvent } from './sse-frame.js';

/** A subscriber's filter; equal keys promise equal filters, so a feed may run one for all of them. */
export interface FeedFilter {
  key?: string;
  keep(e: StreamEvent): boolean;
}

export interface EventFeed {
  /** Events with id > lastId from bounded history, in id order; 'gone' if history was pruned past it. */
  since(lastId: number): StreamEvent[] | 'gone';
  /**
   * Live events that `filter` keeps (all without one), in id order, in non-empty batches. Returns the
   * unsubscribe function.
   */
  subscribe(fn: (batch: EventBatch) => void, filter?: FeedFilter): () => void;
  lastId(): number;
}

export interface SseLimits {
  queueEventsMax: number;
  queueBytesMax: number;
  heartbeatMs: number;
  retryMs: number;
  closeGraceMs: number;
}

export type SseCloseReason = 'client' | 'lagged' | 'gone' | 'shutdown';

export interface SessionOptions {
  filter?: FeedFilter;
  onClose?: (reason: SseCloseReason) => void;
  /** Called once when the session ends, whatever the reason (frees the stream slot). */
  release: () => void;
}

interface Queued {
  id: number;
  frame: string;
  bytes: number;
}

/** A subscriber whose socket has not drained for this many heartbeats in a row is treated as lagged. */
const STALLED_HEARTBEATS_MAX = 2;

export class SseSession {
  private live: Queued[] = [];
  private liveBytes = 0;
  private replay: StreamEvent[] = [];
  private replayAt = 0;
  private writable = true;
  private closed = false;
  private stalled = 0;
  private lastSentId = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private lagCheck: NodeJS.Immediate | undefined;
  private unsubscribe: () => void = () => {};
  private readonly keep: (e: StreamEvent) => boolean;
  private chunked = false;
  /** The socket this session listens to for 'drain' (the one it writes to directly), if any. */
  private drainSocket: Socket | undefined;
  private readonly onDrain = (): void => {
    this.writable = true;
    this.pump();
  };

  /** `res`: its head already written (serveSse writes it with the `retry:` line). */
  constructor(
    private readonly res: ServerResponse,
    private readonly limits: SseLimits,
    private readonly opts: SessionOptions,
  ) {
    const filter = opts.filter;
    this.keep = filter === undefined ? () => true : (e) => filter.keep(e);
  }

  /** Subscribes first, then replays history after `resumeFrom` (live from now when undefined). */
  start(feed: EventFeed, resumeFrom: number | undefined): void {
    this.chunked = this.res.chunkedEncoding;
    this.lastSentId = resumeFrom ?? 0;
    this.unsubscribe = feed.subscribe((b) => this.onBatch(b), this.opts.filter);
    if (resumeFrom === undefined) this.lastSentId = feed.lastId();
    this.heartbeat = setInterval(() => this.onHeartbeat(), this.limits.heartbeatMs);
    this.heartbeat.unref();
    // The response's own 'drain' follows writes that went through `res.write` (see ownSocket).
    this.res.on('drain', this.onDrain);
    this.res.on('close', () => this.finish('client'));
    this.res.on('error', () => this.finish('client'));
    const history = feed.since(this.lastSentId);
    if (history === 'gone') {
      this.send(formatControl('gone', { last_event_id: this.lastSentId }));
      this.finish('gone');
      return;
    }
    this.replay = history;
    this.pump();
  }

  finish(reason: SseCloseReason): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    clearImmediate(this.lagCheck);
    this.unsubscribe();
    this.res.off('drain', this.onDrain);
    this.drainSocket?.off('drain', this.onDrain);
    this.drainSocket = undefined;
    this.opts.release();
    this.live = [];
    this.replay = [];
    this.opts.onClose?.(reason);
    if (reason !== 'client') {
      this.res.end();
      // A client that never reads would keep the socket (and its buffers) forever.
      setTimeout(() => this.res.destroy(), this.limits.closeGraceMs).unref();
    }
  }

  /** Writes text (one or more whole frames); false when the socket buffer is full. */
  private send(text: string): boolean {
    const bytes = Buffer.from(text, 'utf8');
    return this.sendBytes(bytes, () => httpChunk(bytes));
  }

  /** `plain` (the frames) goes out as `chunk()` when this session frames the chunked coding itself. */
  private sendBytes(plain: Buffer, chunk: () => Buffer): boolean {
    const socket = this.ownSocket();
    if (socket === undefined) {
      if (this.res.writableEnded || this.res.destroyed) return false; // its 'close' ends the session
      return this.res.write(plain); // frames the chunk itself
    }
    if (socket.destroyed) return false; // its 'close' ends the session
    return socket.write(this.chunked ? chunk() : plain);
  }

  /**
   * The socket when it serves this response (and has the drain listener), otherwise undefined: on a
   * pipelined connection it is null, or still serving the previous response, until that one finishes.
   */
  private ownSocket(): Socket | undefined {
    const socket = this.res.socket;
    if (socket === null || (socket as { _httpMessage?: unknown })._httpMessage !== this.res) return undefined;
    if (this.drainSocket !== socket && !this.closed) {
      this.drainSocket?.off('drain', this.onDrain);
      socket.on('drain', this.onDrain);
      this.drainSocket = socket;
    }
    return socket;
  }

  private lagged(): void {
    if (this.closed) return;
    this.send(formatControl('lagged', { last_sent_id: this.lastSentId }));
    this.finish('lagged');
  }

  private idle(): boolean {
    return this.replayAt >= this.replay.length && this.live.length === 0;
  }

  /** Live events the feed has filtered for this subscriber. */
  private onBatch(batch: EventBatch): void {
    const events = batch.events;
    if (this.closed || events.length === 0) return;
    if (this.writable && this.idle() && events[0]!.id > this.lastSentId) {
      // Keeping up: the batch's shared bytes in one write.
      this.lastSentId = events[events.length - 1]!.id;
      this.writable = this.sendBytes(batch.sseBytes(), () => batch.sseChunk());
      return;
    }
    for (const e of events) {
      if (e.id <= this.lastSentId) continue;
      const frame = formatEvent(e);
      const bytes = Buffer.byteLength(frame);
      this.live.push({ id: e.id, frame, bytes });
      this.liveBytes += bytes;
    }
    this.pump();
    // Events can arrive in one synchronous burst (a committed block's events; admissions that never
    // yield to I/O) before any socket can drain, so even a fast reader's queue briefly holds the whole
    // burst (references to shared frames, not copies). Judge the bounds once the subscriber has had its
    // turn to drain (after pending I/O), not in the middle of a burst. (Found by the abuse suite,
    // test/abuse/streams.ts `fullBlockBurst`: with the default limits every SSE reader, however fast,
    // was cut off as lagged by 1,200 transactions in full blocks.)
    if (this.overBounds() && this.lagCheck === undefined) {
      this.lagCheck = setImmediate(() => {
        this.lagCheck = undefined;
        if (this.overBounds()) this.lagged();
      });
    }
  }

  private overBounds(): boolean {
    return this.live.length > this.limits.queueEventsMax || this.liveBytes > this.limits.queueBytesMax;
  }

  /** The next event to write: history first, then queued live events; duplicates dropped by id. */
  private next(): Queued | undefined | 'empty' {
    if (this.replayAt < this.replay.length) {
      const e = this.replay[this.replayAt++]!;
      return e.id > this.lastSentId && this.keep(e)
        ? { id: e.id, frame: formatEvent(e), bytes: 0 }
        : undefined;
    }
    const queued = this.live.shift();
    if (queued === undefined) return 'empty';
    this.liveBytes -= queued.bytes;
    return queued.id > this.lastSentId ? queued : undefined;
  }

  private pump(): void {
    while (this.writable && !this.closed) {
      const next = this.next();
      if (next === 'empty') return;
      if (next === undefined) continue;
      this.lastSentId = next.id;
      this.writable = this.send(next.frame);
    }
  }

  private onHeartbeat(): void {
    if (!this.writable) {
      this.stalled += 1;
      if (this.stalled >= STALLED_HEARTBEATS_MAX) this.lagged();
      return;
    }
    this.stalled = 0;
    if (this.idle()) this.writable = this.send(HEARTBEAT_FRAME);
  }
}
