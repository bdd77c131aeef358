// A minimal Server-Sent Events client over `fetch` streaming (works in Node ≥ 20 and browsers) with
// automatic resumption: after a dropped connection or a `lagged` notice it reconnects with
// Last-Event-ID, so no event is lost while the node still holds it in history.

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
}

function parseBlock(block: string): { id?: string; event?: string; data: string[] } {
  const out: { id?: string; event?: string; data: string[] } = { data: [] };
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (field === 'id') out.id = value;
    else if (field === 'event') out.event = value;
    else if (field === 'data') out.data.push(value);
  }
  return out;
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
    let buffer = '';
    let gone = false;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = parseBlock(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf('\n\n');
          if (block.event === 'gone') gone = true;
          if (block.id === undefined || !/^\d+$/.test(block.id)) continue;
          const id = Number(block.id);
          if (last !== undefined && id <= last) continue;
          last = id;
          yield { id, event: block.event ?? 'message', data: block.data.join('\n') };
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
