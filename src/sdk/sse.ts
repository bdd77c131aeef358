// A Server-Sent Events client over `fetch` streaming (works in Node ≥ 20 and browsers) with
// automatic resumption: after a dropped connection or a `lagged` notice it reconnects with
// Last-Event-ID, so no event is lost while the node still holds it in history. The stream is parsed
// by eventsource-parser (WHATWG HTML §9.2.6: CR, LF and CRLF line ends, also split across chunks,
// which the hand-written parser it replaced got wrong for a CR at the end of a chunk).

import { createParser, type EventSourceMessage } from 'eventsource-parser';
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
}

export async function* sseStream(http: Http, opts: SseOptions): AsyncGenerator<SseMessage> {
  let last = opts.lastEventId;
  let failures = 0;
  const decoder = new TextDecoder();
  while (!opts.signal?.aborted) {
    let res: Response;
    try {
      res = await http.raw(http.url(opts.path, opts.query), {
        headers: {
          ...opts.headers?.(),
          accept: 'text/event-stream',
          ...(last === undefined ? {} : { 'last-event-id': String(last) }),
        },
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch (e) {
      if (opts.signal?.aborted) return;
      if (++failures > (opts.reconnectAttemptsMax ?? 10)) throw e;
      await new Promise((r) =>
        setTimeout(r, Math.min((opts.reconnectDelayMs ?? 250) * 2 ** failures, 10_000)),
      );
      continue;
    }
    if (!res.ok || res.body === null) {
      const body = (await res.json().catch(() => ({}))) as {
        code?: string;
        message?: string;
        details?: Record<string, unknown>;
      };
      throw new ToranaApiError(
        res.status,
        body.code ?? `http_${res.status}`,
        body.message ?? res.statusText,
        body.details ?? {},
      );
    }
    failures = 0;
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => pending.push(m) });
    let gone = false;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        for (const m of pending.splice(0)) {
          if (m.event === 'gone') gone = true;
          if (m.id === undefined || !/^\d+$/.test(m.id)) continue;
          const id = Number(m.id);
          if (last !== undefined && id <= last) continue;
          last = id;
          yield { id, event: m.event ?? 'message', data: m.data };
        }
      }
    } catch (e) {
      if (opts.signal?.aborted) return;
      void e; // a dropped connection: reconnect below with Last-Event-ID
    }
    if (gone)
      throw new ToranaApiError(
        410,
        'events_gone',
        'the node no longer holds the events after the last seen id',
        { last_event_id: last ?? null },
      );
    await new Promise((r) => setTimeout(r, opts.reconnectDelayMs ?? 250));
  }
}
