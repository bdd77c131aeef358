// GET /events over WebSocket. The client's first
// message is its stream subscription: a text frame holding JSON `{"filter": <expr>, "since": <id>}` (both
// optional) or a binary frame holding a framed codec `EventSubscription` (views/events.ts). The server
// then sends one message per matching event: framed codec `EventEnvelope` binary frames when the request
// was binary, JSON text frames `{"id": …, "event": …}` when it was text.
// Same rules as SSE (sse.ts): subscribe live first, then replay history after `since`, duplicates dropped
// by id; replay waits for the socket to drain; live events wait in a queue bounded by the send limits,
// over which the connection is closed 1013 `lagged` (the client resumes with `since` = the last id it
// received, losing nothing). A `since` the history no longer holds: close 4410 `gone`. A bad request:
// close 1008. One stream subscription per connection: any later message closes 1008.
// Live events come from the hub in batches, filtered once for every stream subscription with the same filter
// (its key is the filter's JSON); a stream subscription that keeps up writes the batch's shared frames
// (SharedBatch.wsFrames) in one write, and queued or replayed events are written from each event's
// shared frame, so no message is encoded per connection.

import { decodeFrame } from '../codec/frame.js';
import type { SchemaRegistry } from '../codec/registry.js';
import { compileEventFilter, type EventMatcher } from './event-filter.js';
import type { EventHub, SharedBatch, SharedEvent } from './event-hub.js';
import type { QueryPort } from './query-port.js';
import { EventSubscriptionView, SUBSCRIPTION_DECODE_LIMITS } from './views/events.js';
import { WS_CLOSE, type WsContext } from './ws.js';

/** Application close code (RFC 6455 §7.4.2 private range): the resume id is older than the history. */
export const WS_CLOSE_GONE = 4410;

export interface EventRequest {
  match: EventMatcher;
  /** Equal keys for equal filters (event-hub.ts groups); undefined when the filter has no JSON form. */
  filterKey: string | undefined;
  since: number | undefined;
  binary: boolean;
}

export interface EventSocketOptions {
  schema: SchemaRegistry;
  filterDepthMax: number;
  /** The query engine that compiles the stream subscription's filter. */
  query: QueryPort;
  /** Live events queued for a subscriber whose socket is full, before it is closed as lagged. */
  queueEventsMax: number;
}

/** WsContext.close cuts reasons to the close frame's limit. */
const refuse = (reason: string) => ({ ok: false as const, reason });

function parseText(
  text: string,
): { ok: true; filter: unknown; since: unknown } | { ok: false; reason: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse('subscription is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return refuse('subscription must be a JSON object');
  const extra = Object.keys(body).find((k) => k !== 'filter' && k !== 'since');
  if (extra !== undefined) return refuse(`unknown subscription field ${extra}`);
  const { filter, since } = body as { filter?: unknown; since?: unknown };
  return { ok: true, filter, since };
}

/**
 * The stream subscription in a first message, or why it is refused (the close reason); `filter` is the
 * expression as sent (routes/streams.ts resolves its names in place of ids, event-ids.ts, before subscribing).
 */
export function parseEventRequest(
  first: Buffer,
  binary: boolean,
  opts: Pick<EventSocketOptions, 'schema' | 'filterDepthMax' | 'query'>,
): { ok: true; request: EventRequest; filter: unknown } | { ok: false; reason: string } {
  let filter: unknown;
  let since: unknown;
  if (binary) {
    const decoded = decodeFrame(opts.schema, EventSubscriptionView, first, SUBSCRIPTION_DECODE_LIMITS);
    if (!decoded.ok) return refuse(`bad EventSubscription: ${decoded.error.code}`);
    ({ filter, since } = decoded.value);
  } else {
    const parsed = parseText(first.toString('utf8'));
    if (!parsed.ok) return parsed;
    ({ filter, since } = parsed);
  }
  if (since !== undefined && !(Number.isSafeInteger(since) && (since as number) >= 0))
    return refuse('since must be a non-negative integer');
  const compiled = compileEventFilter(filter, opts.filterDepthMax, opts.query);
  if (!compiled.ok) return refuse(`invalid filter at ${compiled.details.path}: ${compiled.details.reason}`);
  const request = {
    match: compiled.match,
    filterKey: filterKeyOf(filter),
    since: since as number | undefined,
  };
  return { ok: true, request: { ...request, binary }, filter };
}

export function filterKeyOf(filter: unknown): string | undefined {
  try {
    return `ws:${JSON.stringify(filter ?? null)}`;
  } catch {
    return undefined; // e.g. a bigint: this stream subscription gets a group of its own
  }
}

/** Why a stream subscription ended: the server cut a lagging client, the resume id was too old, or it closed. */
export type EventStreamEnd = 'lagged' | 'gone' | 'closed';

/** One stream subscription on one connection: replay, then live, under the connection's send bounds. */
export class EventSocketSession {
  private replay: SharedEvent[] = [];
  private replayAt = 0;
  private live: SharedEvent[] = [];
  private lastSentId = 0;
  private waiting = false;
  private closed = false;
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly ctx: WsContext,
    private readonly request: EventRequest,
    private readonly queueEventsMax: number,
    private readonly onEnd: (reason: EventStreamEnd) => void = () => {},
  ) {}

  start(hub: EventHub): void {
    this.ctx.onClose(() => this.end('closed'));
    this.lastSentId = this.request.since ?? 0;
    const match = this.request.match;
    const key = this.request.filterKey;
    this.unsubscribe = hub.subscribe((b) => this.onBatch(b), {
      keep: (e) => match(hub.fieldsOf(e)),
      ...(key === undefined ? {} : { key }),
    });
    if (this.request.since === undefined) this.lastSentId = hub.lastId();
    const history = hub.since(this.lastSentId);
    if (history === 'gone') {
      this.close(WS_CLOSE_GONE, 'gone', 'gone');
      return;
    }
    this.replay = history;
    this.pump();
  }

  private close(code: number, text: string, reason: EventStreamEnd): void {
    this.end(reason);
    this.ctx.close(code, text);
  }

  private end(reason: EventStreamEnd): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.replay = [];
    this.live = [];
    this.onEnd(reason);
  }

  /** Live events the hub has filtered for this stream subscription. */
  private onBatch(batch: SharedBatch): void {
    const events = batch.events;
    if (this.closed || events.length === 0) return;
    const idle = !this.waiting && this.replayAt >= this.replay.length && this.live.length === 0;
    if (idle && events[0]!.id > this.lastSentId && this.ctx.hasRoom(events.length)) {
      // Keeping up: the batch's shared frames in one write.
      this.lastSentId = events[events.length - 1]!.id;
      this.ctx.sendFrames(batch.wsFrames(this.request.binary), events.length);
      return;
    }
    for (const e of events) if (e.id > this.lastSentId) this.live.push(e);
    // What the send bounds take goes out first; only the rest counts against the queue bound, as
    // when the events came one at a time (a full block's burst must not cut off a reader).
    this.pump();
    if (this.live.length > this.queueEventsMax) this.close(WS_CLOSE.tryAgainLater, 'lagged', 'lagged');
  }

  /** History first, then queued live events; undefined for an event to skip. */
  private next(): SharedEvent | undefined | 'empty' {
    if (this.replayAt < this.replay.length) {
      const e = this.replay[this.replayAt++]!;
      return e.id > this.lastSentId && this.request.match(e.fields) ? e : undefined;
    }
    const e = this.live.shift();
    if (e === undefined) return 'empty';
    return e.id > this.lastSentId ? e : undefined;
  }

  private pump(): void {
    while (!this.closed && !this.waiting) {
      if (!this.ctx.hasRoom()) {
        this.waiting = true;
        void this.ctx.drained().then((open) => {
          this.waiting = false;
          if (open) this.pump();
        });
        return;
      }
      const e = this.next();
      if (e === 'empty') return;
      if (e === undefined) continue;
      this.lastSentId = e.id;
      this.ctx.sendFrames(e.wsFrame(this.request.binary), 1);
    }
  }
}
