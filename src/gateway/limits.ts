// Every gateway limit as one plain object. The composition root maps configuration keys onto it; each field
// has a default here and exceeding it gives a documented error (README.md "Limits").

import { AssertionError } from '../util/assert.js';

export interface GatewayLimits {
  /** Default request body limit; a route may set its own (`RouteDef.bodyBytesMax`). 413 above. */
  readonly bodyBytesMax: number;
  /** Total size of the request line and headers (node `maxHeaderSize`). 431 above. */
  readonly headerBytesMax: number;
  /** Time to receive the whole request (node `requestTimeout`). 408 after. */
  readonly requestTimeoutMs: number;
  /** Time to receive the request headers (node `headersTimeout`, defeats slowloris). 408 after. */
  readonly headersTimeoutMs: number;
  /** Idle time before a kept-alive connection is closed. */
  readonly keepAliveTimeoutMs: number;
  /** How often node checks the two timeouts above; bounds how late they fire. */
  readonly timeoutCheckIntervalMs: number;
  /** Open TCP connections in total (node `server.maxConnections`: extra sockets are dropped). */
  readonly connectionsMax: number;
  /** Open TCP connections per remote address; extra sockets are destroyed on accept. */
  readonly connectionsPerIpMax: number;
  /** Token bucket per client address: sustained requests per second, 0 disables the limiter. */
  readonly ratePerSecond: number;
  /** Token bucket size: the burst a client may send at once. 429 + Retry-After when empty. */
  readonly rateBurst: number;
  /** Client addresses the rate limiter remembers; the least recently seen is forgotten first. */
  readonly rateTrackedIpsMax: number;
  /** Open SSE streams on this server. 429 `stream_limit_reached` above. */
  readonly sseClientsMax: number;
  /** Open SSE streams from one client address (IPv4, or IPv6 /64). 429 `stream_limit_reached` above. */
  readonly sseClientsPerIpMax: number;
  /** Per SSE subscriber: events queued while the client is not reading, then `lagged` and close. */
  readonly sseQueueEventsMax: number;
  /** Per SSE subscriber: bytes queued while the client is not reading, then `lagged` and close. */
  readonly sseQueueBytesMax: number;
  /** Interval of the SSE heartbeat comment (keeps proxies from closing idle streams). */
  readonly sseHeartbeatMs: number;
  /** Reconnection delay advised to SSE clients (`retry:` field). */
  readonly sseRetryMs: number;
  /** Open WebSocket connections on this server. 503 `too_many_connections` above. */
  readonly wsClientsMax: number;
  /** Open WebSocket connections from one client address (IPv4, or IPv6 /64). 429 above. */
  readonly wsClientsPerIpMax: number;
  /** Largest WebSocket message accepted (close 1009 above). */
  readonly wsFrameBytesMax: number;
  /** A WebSocket client must send its request within this time, else close 1008. */
  readonly wsFirstMessageTimeoutMs: number;
  /** Ping interval; a client that has not answered the previous ping is terminated. */
  readonly wsPingIntervalMs: number;
  /** Per WebSocket client: messages queued and not yet flushed, then close 1013 `lagged`. */
  readonly wsSendQueueMax: number;
  /** Per WebSocket client: bytes buffered and not yet flushed, then close 1013 `lagged`. */
  readonly wsSendBufferBytesMax: number;
  /** Subscriptions one WebSocket connection may hold. */
  readonly wsSubscriptionsMax: number;
  /** After a stream is closed for lagging, the socket is destroyed if it has not closed by then. */
  readonly streamCloseGraceMs: number;
}

export const DEFAULT_GATEWAY_LIMITS: GatewayLimits = Object.freeze({
  bodyBytesMax: 64 * 1024,
  headerBytesMax: 16 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 72_000,
  timeoutCheckIntervalMs: 1_000,
  connectionsMax: 1_024,
  connectionsPerIpMax: 32,
  ratePerSecond: 100,
  rateBurst: 200,
  rateTrackedIpsMax: 10_000,
  sseClientsMax: 1_000,
  sseClientsPerIpMax: 16,
  sseQueueEventsMax: 1_000,
  sseQueueBytesMax: 1024 * 1024,
  sseHeartbeatMs: 15_000,
  sseRetryMs: 2_000,
  wsClientsMax: 100,
  wsClientsPerIpMax: 10,
  wsFrameBytesMax: 64 * 1024,
  wsFirstMessageTimeoutMs: 10_000,
  wsPingIntervalMs: 30_000,
  wsSendQueueMax: 1_000,
  wsSendBufferBytesMax: 1024 * 1024,
  wsSubscriptionsMax: 5,
  streamCloseGraceMs: 5_000,
});

const MAY_BE_ZERO: ReadonlySet<keyof GatewayLimits> = new Set(['ratePerSecond']);

/** Defaults overlaid with `partial`; a non-integer, negative or zero limit is a configuration bug. */
export function resolveLimits(partial: Partial<GatewayLimits> = {}): GatewayLimits {
  const limits: GatewayLimits = { ...DEFAULT_GATEWAY_LIMITS, ...partial };
  for (const [key, value] of Object.entries(limits) as [keyof GatewayLimits, number][]) {
    const min = MAY_BE_ZERO.has(key) ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < min) {
      throw new AssertionError(`gateway limit ${key} must be an integer >= ${min}, got ${value}`);
    }
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new AssertionError('gateway limit headersTimeoutMs must not exceed requestTimeoutMs');
  }
  return Object.freeze(limits);
}
