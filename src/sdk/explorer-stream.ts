// The explorer's SSE streams (docs/explorer.md "Streams") over `fetch` streaming: their ids are
// `height`, `height:tx_index` or `height:tx_index:instruction_index`, not the integers of sse.ts, so this
// reader keeps the last id as text, resumes with it after a dropped connection or a `lagged` notice,
// and drops any item at or before it. `event: gone` ends the stream with a 410 `events_gone` error.

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ToranaApiError } from './errors.js';
import type { Http } from './http.js';

export interface ExplorerStreamOptions {
  /** Resume after this id (as a previous item's `id`). */
  since?: string;
  signal?: AbortSignal;
  /** Delay before reconnecting (default 250 ms). */
  reconnectDelayMs?: number;
  /** Consecutive failed connection attempts before giving up (default 10). */
  reconnectAttemptsMax?: number;
}

export interface ExplorerStreamItem {
  id: string;
  /** `block`, `transaction` or `instruction`. */
  event: string;
  /** The item's JSON, as in the list route. */
  // biome-ignore lint/suspicious/noExplicitAny: the list item's JSON (views of src/explorer).
  data: any;
}

const ID = /^\d+(?::\d+){0,2}$/;

/** Whether id `a` comes after id `b` (same form: compared part by part as integers). */
export function idAfter(a: string, b: string): boolean {
  const x = a.split(':').map(Number);
  const y = b.split(':').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d > 0;
  }
  return false;
}

async function failure(res: Response): Promise<ToranaApiError> {
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

export async function* explorerStream(
  http: Http,
  kind: 'blocks' | 'transactions' | 'instructions',
  query: Record<string, string | number | undefined>,
  o: ExplorerStreamOptions,
): AsyncGenerator<ExplorerStreamItem> {
  let last = o.since;
  let failures = 0;
  const decoder = new TextDecoder();
  while (!o.signal?.aborted) {
    let res: Response;
    try {
      res = await http.raw(http.url(`/v1/explorer/${kind}/stream`, query), {
        headers: { accept: 'text/event-stream', ...(last === undefined ? {} : { 'last-event-id': last }) },
        ...(o.signal ? { signal: o.signal } : {}),
      });
    } catch (e) {
      if (o.signal?.aborted) return;
      if (++failures > (o.reconnectAttemptsMax ?? 10)) throw e;
      await new Promise((r) => setTimeout(r, Math.min((o.reconnectDelayMs ?? 250) * 2 ** failures, 10_000)));
      continue;
    }
    if (!res.ok || res.body === null) throw await failure(res);
    failures = 0;
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => pending.push(m) });
    let gone = false;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        for (const m of pending.splice(0)) {
          if (m.event === 'gone') gone = true;
          if (m.id === undefined || !ID.test(m.id)) continue;
          if (last !== undefined && !idAfter(m.id, last)) continue;
          last = m.id;
          yield { id: m.id, event: m.event ?? 'message', data: JSON.parse(m.data) };
        }
      }
    } catch (e) {
      if (o.signal?.aborted) return;
      void e; // a dropped connection: reconnect below with Last-Event-ID
    }
    if (gone)
      throw new ToranaApiError(
        410,
        'events_gone',
        'the node no longer replays the items after the last seen id',
        {
          last_event_id: last ?? null,
        },
      );
    await new Promise((r) => setTimeout(r, o.reconnectDelayMs ?? 250));
  }
}
