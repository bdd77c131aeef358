// A Server-Sent Events client over `fetch` streaming (works in Node ≥ 20 and browsers) with
// automatic resumption: after a dropped connection or a `lagged` notice it reconnects with
// Last-Event-ID, so no event is lost while the node still holds it in history. The stream is parsed
// by eventsource-parser (WHATWG HTML §9.2.6: CR, LF and CRLF line ends, also split across chunks,
// which the hand-written parser it replaced got wrong for a CR at the end of a chunk).

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { exponentialDelayMs } from '../util/backoff.js';
import { ToranaApiError } from './errors.js';
import type { Http } from './http.js';

export interface SseMessage {
  id: number;
  event: string;
  data: string;
}

export interface SseOptions {
  path: string;
  query?: Record<string, string | undefined>;
  /** Resume after this event id. */
  lastEventId?: number;
  /** Delay before reconnecting; doubled per failed attempt up to 10 s. */
  reconnectDelayMs?: number;
  /** Consecutive failed connection attempts before giving up. */
  reconnectAttemptsMax?: number;
  signal?: AbortSignal;
  /**
   * Extra headers, asked for afresh before every connection attempt (a signed request must carry a
   * new timestamp and nonce each time: gateway/signed-request.ts).
   */
  headers?: () => Record<string, string>;
  /** Called each time a connection is open and streaming. */
  onOpen?: () => void;
  /** Called each time a connection attempt fails or an open connection drops (before any reconnect). */
  onDrop?: (error: unknown) => void;
}

/**
 * A resuming SSE stream whose ids are read, compared and sent back by the caller: sseStream's integers,
 * or a module stream's own, e.g. `height[:tx[:instruction]]`. Events without a readable id, and
 * those at or before the last one seen, are dropped; `event: gone` ends it with 410 `events_gone`.
 */
export interface ResumingStream<Id, T> {
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  /** Resume after this id. */
  last?: Id | undefined;
  /** The id of an event, or undefined when it carries none that this stream reads. */
  idOf(text: string): Id | undefined;
  /** Whether id `a` comes after id `b`. */
  after(a: Id, b: Id): boolean;
  item(id: Id, event: string, data: string): T;
  /** The message of the `events_gone` error. */
  goneMessage: string;
  reconnectDelayMs?: number | undefined;
  reconnectAttemptsMax?: number | undefined;
  signal?: AbortSignal | undefined;
  headers?: (() => Record<string, string>) | undefined;
  onOpen?: (() => void) | undefined;
  onDrop?: ((error: unknown) => void) | undefined;
}

/** The error of a refused stream request, from the gateway's error body when it has one. */
export async function streamFailure(res: Response): Promise<ToranaApiError> {
  const body = (await res.json().catch(() => ({}))) as {
    code?: string;
    message?: string;
    details?: Record<string, unknown>;
  };
  return new ToranaApiError(
    res.status,
    body.code ?? `http_${res.status}`,
    body.message ?? res.statusText,
    body.details ?? {},
  );
}

export async function* resumingStream<Id, T>(http: Http, s: ResumingStream<Id, T>): AsyncGenerator<T> {
  let last = s.last;
  let failures = 0;
  const decoder = new TextDecoder();
  while (!s.signal?.aborted) {
    let res: Response;
    try {
      res = await http.raw(http.url(s.path, s.query), {
        headers: {
          ...s.headers?.(),
          accept: 'text/event-stream',
          ...(last === undefined ? {} : { 'last-event-id': String(last) }),
        },
        ...(s.signal ? { signal: s.signal } : {}),
      });
    } catch (e) {
      if (s.signal?.aborted) return;
      s.onDrop?.(e);
      if (++failures > (s.reconnectAttemptsMax ?? 10)) throw e;
      await new Promise((r) =>
        setTimeout(r, exponentialDelayMs(s.reconnectDelayMs ?? 250, 10_000, failures)),
      );
      continue;
    }
    if (!res.ok || res.body === null) throw await streamFailure(res);
    failures = 0;
    s.onOpen?.();
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => pending.push(m) });
    let gone = false;
    let dropped: unknown;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        for (const m of pending.splice(0)) {
          if (m.event === 'gone') gone = true;
          const id = m.id === undefined ? undefined : s.idOf(m.id);
          if (id === undefined) continue;
          if (last !== undefined && !s.after(id, last)) continue;
          last = id;
          yield s.item(id, m.event ?? 'message', m.data);
        }
      }
      dropped = new Error('the node closed the event stream');
    } catch (e) {
      if (s.signal?.aborted) return;
      dropped = e; // a dropped connection: reconnect below with Last-Event-ID
    }
    if (s.signal?.aborted) return;
    if (!gone) s.onDrop?.(dropped);
    if (gone) throw new ToranaApiError(410, 'events_gone', s.goneMessage, { last_event_id: last ?? null });
    await new Promise((r) => setTimeout(r, s.reconnectDelayMs ?? 250));
  }
}

export function sseStream(http: Http, opts: SseOptions): AsyncGenerator<SseMessage> {
  return resumingStream(http, {
    path: opts.path,
    query: opts.query,
    last: opts.lastEventId,
    idOf: (text) => (/^\d+$/.test(text) ? Number(text) : undefined),
    after: (a, b) => a > b,
    item: (id, event, data) => ({ id, event, data }),
    goneMessage: 'the node no longer holds the events after the last seen id',
    reconnectDelayMs: opts.reconnectDelayMs,
    reconnectAttemptsMax: opts.reconnectAttemptsMax,
    signal: opts.signal,
    headers: opts.headers,
    onOpen: opts.onOpen,
    onDrop: opts.onDrop,
  });
}
