// SSE written by hand on the hijacked reply (docs/design/dependencies.md). One session:
//   1. subscribe to live events first (buffered), THEN read history after the resume id, so no event
//      published in between is lost; duplicates are dropped by id (ids only grow);
//   2. replay history, then the buffered live events, then follow live events;
//   3. backpressure: while the socket does not drain, live events wait in a per-subscriber queue bounded
//      in events and bytes. Over either bound the client gets `event: lagged` with `{ last_sent_id }` and
//      the stream is closed; EventSource reconnects with Last-Event-ID and resumes without loss;
//   4. resuming from an id the history no longer holds: `event: gone` with `{ last_event_id }`, then
//      close. The client must start afresh (without Last-Event-ID) and re-read state it missed; a client
//      that simply reconnects with the same id would get `gone` again, so it must stop on `gone`.
// A heartbeat comment keeps idle streams open through proxies; a client that has not drained its socket
// for two heartbeats in a row is treated as lagged.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { gatewayError } from './errors.js';
import { methodLabel, routeLabel } from './metrics.js';
import { clientKey } from './rate-limit.js';
import { formatRetry, lastEventIdOf, type StreamEvent } from './sse-frame.js';
import { type EventFeed, type SseCloseReason, type SseLimits, SseSession } from './sse-session.js';

export type { StreamEvent } from './sse-frame.js';
export type { EventFeed, SseCloseReason, SseLimits } from './sse-session.js';

export interface SseOptions {
  filter?: (e: StreamEvent) => boolean;
  /**
   * Equal keys promise equal filters: the feed runs the filter once per event for every subscriber
   * holding the key, and they share the bytes of each batch (event-hub.ts). Omitted: not shared.
   */
  filterKey?: string;
  limits?: Partial<SseLimits>;
  onClose?: (reason: SseCloseReason) => void;
  /**
   * Where to resume, for feeds whose wire ids are not the session's integers (e.g.
   * `height:tx_index` ids): the caller has read Last-Event-ID itself. `{ id: undefined }`: start live.
   */
  resume?: { id: number | undefined };
}

/** Serves `feed` as an SSE stream. Throws (before hijacking) a GatewayError for 400/429 answers. */
export function serveSse(
  req: FastifyRequest,
  reply: FastifyReply,
  feed: EventFeed,
  opts: SseOptions = {},
): void {
  const gw = req.server.gateway;
  const limits: SseLimits = {
    queueEventsMax: gw.limits.sseQueueEventsMax,
    queueBytesMax: gw.limits.sseQueueBytesMax,
    heartbeatMs: gw.limits.sseHeartbeatMs,
    retryMs: gw.limits.sseRetryMs,
    closeGraceMs: gw.limits.streamCloseGraceMs,
    ...opts.limits,
  };
  const resumeFrom = opts.resume !== undefined ? opts.resume.id : lastEventIdOf(req);
  let session: SseSession | undefined;
  const release = gw.streams.open('sse', () => session?.finish('shutdown'), clientKey(req.ip));
  if (typeof release === 'string') {
    const perIp = release === 'address';
    throw gatewayError('stream_limit_reached', {
      kind: 'sse',
      scope: perIp ? 'client_address' : 'server',
      limit: perIp ? gw.limits.sseClientsPerIpMax : gw.limits.sseClientsMax,
      retry_after_s: 1,
    });
  }
  reply.hijack();
  gw.metrics.requests.inc({ route: routeLabel(req), method: methodLabel(req.method), status: '200' });
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v;
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    connection: 'close',
  });
  reply.raw.write(formatRetry(limits.retryMs));
  session = new SseSession(reply.raw, limits, {
    release,
    ...(opts.filter === undefined
      ? {}
      : { filter: { keep: opts.filter, ...(opts.filterKey === undefined ? {} : { key: opts.filterKey }) } }),
    ...(opts.onClose === undefined ? {} : { onClose: opts.onClose }),
  });
  session.start(feed, resumeFrom);
}
