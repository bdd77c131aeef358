// One WebSocket connection's limits (frame 64 KiB, ping every 30 s, 5 subscriptions per connection, bounded
// send buffer; the client must send its first request within 10 s). Close codes follow RFC 6455 §7.4.1:
// 1008 policy violation (no first message in time), 1009 message too big (enforced by `ws` itself through
// maxPayload), 1013 try again later (`lagged`: the client does not read fast enough), 1001 going away
// (server shutdown), 1011 handler failure.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket } from 'ws';

export interface WsLimits {
  frameBytesMax: number;
  firstMessageTimeoutMs: number;
  pingIntervalMs: number;
  sendQueueMax: number;
  sendBufferBytesMax: number;
  subscriptionsMax: number;
  closeGraceMs: number;
}

export const WS_CLOSE = {
  goingAway: 1001,
  policyViolation: 1008,
  messageTooBig: 1009,
  internalError: 1011,
  tryAgainLater: 1013,
} as const;

/** What a WebSocket route handler uses instead of raw `socket.send` / `socket.close`. */
export interface WsContext {
  readonly remoteAddress: string;
  /** Queues a message; false (and the connection closed 1013 `lagged`) when the client lags. */
  send(data: Uint8Array | string): boolean;
  /**
   * Writes `count` whole data frames built once for many connections (ws-frame.ts) to the socket in one
   * write, under the same bounds as `send`. The server negotiates no extension and sends no Blob, so
   * `ws` writes its own frames (pings, close) synchronously and these can never split one of them.
   */
  sendFrames(frames: Buffer, count: number): boolean;
  /** True while `messages` (1) more may be sent without crossing the send bounds (and the socket is open). */
  hasRoom(messages?: number): boolean;
  /**
   * Resolves true once at most half of each send bound is in use, false if the connection closes
   * first. Producers that can wait (replays, block reads) use it instead of being closed as `lagged`.
   */
  drained(): Promise<boolean>;
  close(code: number, reason: string): void;
  /** Takes one of the connection's subscription slots; false when all are taken. */
  acquireSubscription(): boolean;
  releaseSubscription(): void;
  onClose(fn: (code: number, reason: string) => void): void;
}

/** `binary`: the first message came as a binary frame (text frames are UTF-8 text). */
export type WsHandler = (socket: WebSocket, firstMessage: Buffer, ctx: WsContext, binary: boolean) => void;

/** RFC 6455 §5.5: a control frame payload is at most 125 bytes, 2 of them the close code. */
export const CLOSE_REASON_BYTES_MAX = 123;

/**
 * `reason` cut to the close frame's limit on a character boundary: reasons may quote client input, and
 * `ws` throws on an overlong one (which would leave the connection open).
 */
export function closeReason(reason: string): string {
  if (Buffer.byteLength(reason) <= CLOSE_REASON_BYTES_MAX) return reason;
  let out = '';
  for (const ch of reason) {
    if (Buffer.byteLength(out + ch) > CLOSE_REASON_BYTES_MAX) break;
    out += ch;
  }
  return out;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Pings every interval; terminates a peer that did not answer the previous ping (RFC 6455 §5.5.2). */
function keepAlive(ws: WebSocket, intervalMs: number): NodeJS.Timeout {
  let alive = true;
  ws.on('pong', () => {
    alive = true;
  });
  return setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    alive = false;
    ws.ping();
  }, intervalMs);
}

interface CloseState {
  sent?: { code: number; reason: string };
  grace?: NodeJS.Timeout;
  readonly listeners: ((code: number, reason: string) => void)[];
}

function boundedContext(
  ws: WebSocket,
  req: IncomingMessage,
  raw: Duplex,
  limits: WsLimits,
  state: CloseState,
): WsContext {
  let inflight = 0;
  let held = 0;
  const waiters: ((open: boolean) => void)[] = [];
  const open = () => state.sent === undefined && ws.readyState === WebSocket.OPEN;
  const halfEmpty = () =>
    inflight <= limits.sendQueueMax / 2 && ws.bufferedAmount <= limits.sendBufferBytesMax / 2;
  const wake = () => {
    if (waiters.length === 0 || (open() && !halfEmpty())) return;
    const isOpen = open();
    for (const w of waiters.splice(0)) w(isOpen);
  };
  state.listeners.push(wake);
  /** Takes `count` in-flight places, or closes the connection as lagged when they would cross a bound. */
  const admit = (count: number): boolean => {
    if (!open()) return false;
    if (inflight + count > limits.sendQueueMax || ws.bufferedAmount > limits.sendBufferBytesMax) {
      ctx.close(WS_CLOSE.tryAgainLater, 'lagged');
      return false;
    }
    inflight += count;
    return true;
  };
  const ctx: WsContext = {
    remoteAddress: req.socket.remoteAddress ?? 'unknown',
    send(data) {
      if (!admit(1)) return false;
      // `ws` calls this once the frame is written out (or with an error when the socket is gone).
      ws.send(data, { binary: typeof data !== 'string' }, () => {
        inflight -= 1;
        wake();
      });
      return true;
    },
    sendFrames(frames, count) {
      if (!admit(count)) return false;
      raw.write(frames, () => {
        inflight -= count;
        wake();
      });
      return true;
    },
    hasRoom: (messages = 1) =>
      open() && inflight + messages <= limits.sendQueueMax && ws.bufferedAmount <= limits.sendBufferBytesMax,
    drained() {
      if (!open()) return Promise.resolve(false);
      if (halfEmpty()) return Promise.resolve(true);
      return new Promise((resolve) => waiters.push(resolve));
    },
    close(code, text) {
      if (state.sent !== undefined) return;
      const reason = closeReason(text);
      state.sent = { code, reason };
      wake();
      ws.close(code, reason);
      // A client that does not read never answers the close frame; do not wait for it forever.
      state.grace = setTimeout(() => ws.terminate(), limits.closeGraceMs);
      state.grace.unref();
    },
    acquireSubscription() {
      if (held >= limits.subscriptionsMax) return false;
      held += 1;
      return true;
    },
    releaseSubscription() {
      held = Math.max(0, held - 1);
    },
    onClose: (fn) => void state.listeners.push(fn),
  };
  return ctx;
}

export function startWsSession(
  ws: WebSocket,
  req: IncomingMessage,
  raw: Duplex,
  handler: WsHandler,
  limits: WsLimits,
  onHandlerError: (err: unknown) => void,
): WsContext {
  return runWsSession(ws, req, raw, limits, (ctx) => {
    const firstTimer = setTimeout(
      () => ctx.close(WS_CLOSE.policyViolation, 'first message timeout'),
      limits.firstMessageTimeoutMs,
    );
    ws.once('message', (data, isBinary) => {
      clearTimeout(firstTimer);
      try {
        handler(ws, toBuffer(data), ctx, isBinary);
      } catch (err) {
        onHandlerError(err);
        ctx.close(WS_CLOSE.internalError, 'internal error');
      }
    });
    ws.once('close', () => clearTimeout(firstTimer));
  });
}

/** A route's handler for a connection accepted at upgrade time (ws.ts `accept`): no first message to wait for. */
export type WsOpenHandler = (socket: WebSocket, ctx: WsContext) => void;

/** A session whose handler runs as soon as the connection is open (the upgrade was already screened). */
export function startOpenWsSession(
  ws: WebSocket,
  req: IncomingMessage,
  raw: Duplex,
  handler: WsOpenHandler,
  limits: WsLimits,
  onHandlerError: (err: unknown) => void,
): WsContext {
  return runWsSession(ws, req, raw, limits, (ctx) => {
    try {
      handler(ws, ctx);
    } catch (err) {
      onHandlerError(err);
      ctx.close(WS_CLOSE.internalError, 'internal error');
    }
  });
}

function runWsSession(
  ws: WebSocket,
  req: IncomingMessage,
  raw: Duplex,
  limits: WsLimits,
  start: (ctx: WsContext) => void,
): WsContext {
  const state: CloseState = { listeners: [] };
  const ctx = boundedContext(ws, req, raw, limits, state);
  const ping = keepAlive(ws, limits.pingIntervalMs);
  // `ws` reports protocol violations (e.g. a frame above maxPayload) here and then closes by itself.
  ws.on('error', () => {});
  ws.on('close', (code, reason) => {
    clearInterval(ping);
    clearTimeout(state.grace);
    // Listeners learn why WE closed, even when the peer never echoed the close frame.
    const final = state.sent ?? { code, reason: reason.toString('utf8') };
    for (const fn of state.listeners) fn(final.code, final.reason);
  });
  start(ctx);
  return ctx;
}

/** A message's bytes whatever form `ws` gave them in. */
export { toBuffer as wsMessageBytes };
