// The explorer's SSE streams (docs/explorer.md "Streams") over `fetch` streaming: their ids are
// `height`, `height:tx_index` or `height:tx_index:instruction_index`, not the integers of sse.ts, so this
// reader (sse.ts's resumingStream) keeps the last id as text, resumes with it after a dropped connection
// or a `lagged` notice, and drops any item at or before it. `event: gone` ends the stream with a 410
// `events_gone` error.

import type { Http } from '../../sdk/http.js';
import { resumingStream } from '../../sdk/sse.js';

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
  // biome-ignore lint/suspicious/noExplicitAny: the list item's JSON (views.ts, views-more.ts).
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

export function explorerStream(
  http: Http,
  kind: 'blocks' | 'transactions' | 'instructions',
  query: Record<string, string | number | undefined>,
  o: ExplorerStreamOptions,
): AsyncGenerator<ExplorerStreamItem> {
  return resumingStream(http, {
    path: `/v1/explorer/${kind}/stream`,
    query,
    last: o.since,
    idOf: (text) => (ID.test(text) ? text : undefined),
    after: idAfter,
    item: (id, event, data) => ({ id, event, data: JSON.parse(data) }),
    goneMessage: 'the node no longer replays the items after the last seen id',
    reconnectDelayMs: o.reconnectDelayMs,
    reconnectAttemptsMax: o.reconnectAttemptsMax,
    signal: o.signal,
  });
}
