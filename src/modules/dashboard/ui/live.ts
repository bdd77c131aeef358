// The live feed: one EventSource on /v1/events/sse for the whole page. EventSource resends
// Last-Event-ID when it reconnects by itself; when it gives up (the node answered an error while
// restarting), the feed opens a new one with `last_event_id` in the query, so no committed event is
// missed across a node restart.

import type { RecentBlock } from './extensions.js';

export interface FeedItem {
  /** SSE id: unique and increasing. */
  id: string;
  kind: 'block' | 'transaction';
  height?: number;
  hash: string;
  status: string;
  atMs: number;
}

export type FeedState = 'connecting' | 'live' | 'reconnecting';

export interface DataEvent {
  block_height?: number;
  data: Record<string, unknown>;
}

const ITEMS_MAX = 50;
const TX_EVENTS_MAX = 500;
const REOPEN_MS = 1000;
const CATCH_UP_BLOCKS = 10;
/** performance mark set when the first live item reaches the page (read by the browser test). */
export const FIRST_LIVE_MARK = 'torana-first-live-update';

type Listener = () => void;

export class LiveFeed {
  items: FeedItem[] = [];
  state: FeedState = 'connecting';
  lastId: string | undefined;
  /** Data events of transactions seen live, by transaction hash (bounded, oldest dropped). */
  readonly txEvents = new Map<string, DataEvent[]>();
  private source: EventSource | undefined;
  private readonly listeners = new Set<Listener>();
  private reopen: ReturnType<typeof setTimeout> | undefined;

  /** `recent`: where the newest committed blocks come from on (re)connection (the modules' `recentBlocks`). */
  constructor(
    private readonly url: string,
    private readonly recent: readonly ((n: number) => Promise<RecentBlock[]>)[] = [],
  ) {}

  start(): void {
    const q = this.lastId === undefined ? '' : `?last_event_id=${encodeURIComponent(this.lastId)}`;
    const source = new EventSource(this.url + q);
    this.source = source;
    source.onopen = () => {
      this.setState('live');
      void this.catchUp();
    };
    source.onerror = () => {
      this.setState('reconnecting');
      if (source.readyState !== EventSource.CLOSED) return;
      clearTimeout(this.reopen);
      this.reopen = setTimeout(() => this.start(), REOPEN_MS);
    };
    source.addEventListener('block', (e) => this.onBlock(e as MessageEvent<string>));
    source.addEventListener('transaction', (e) => this.onTransaction(e as MessageEvent<string>));
    source.addEventListener('data', (e) => this.onData(e as MessageEvent<string>));
  }

  stop(): void {
    clearTimeout(this.reopen);
    this.source?.close();
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private setState(s: FeedState): void {
    if (this.state === s) return;
    this.state = s;
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  private push(item: FeedItem): void {
    const key = `${item.kind}:${item.hash}`;
    this.items = [item, ...this.items.filter((i) => `${i.kind}:${i.hash}` !== key)].slice(0, ITEMS_MAX);
    if (performance.getEntriesByName(FIRST_LIVE_MARK).length === 0) performance.mark(FIRST_LIVE_MARK);
    this.emit();
  }

  /**
   * On every (re)connection, the newest committed blocks (from the modules that give them) join the
   * feed: a page that had received no event before the node restarted has no id to resume from, and
   * still shows the blocks committed meanwhile. Ordered by height, newest first.
   */
  private async catchUp(): Promise<void> {
    const blocks = (await Promise.all(this.recent.map((r) => r(CATCH_UP_BLOCKS)))).flat();
    const known = new Set(this.items.filter((i) => i.kind === 'block').map((i) => i.hash));
    const fresh: FeedItem[] = blocks
      .filter((b) => !known.has(b.hash))
      .map((b) => ({
        id: `block:${b.height}`,
        kind: 'block',
        height: b.height,
        hash: b.hash,
        status: 'Committed',
        atMs: b.creation_time_ms,
      }));
    if (fresh.length === 0) return;
    this.items = [...this.items, ...fresh]
      .sort((x, y) => (y.height ?? 0) - (x.height ?? 0))
      .slice(0, ITEMS_MAX);
    this.emit();
  }

  private onBlock(e: MessageEvent<string>): void {
    this.lastId = e.lastEventId;
    const b = JSON.parse(e.data) as { height: number; hash: string; status: { kind: string } };
    if (b.status.kind !== 'Committed') return;
    this.push({
      id: e.lastEventId,
      kind: 'block',
      height: b.height,
      hash: b.hash,
      status: 'Committed',
      atMs: Date.now(),
    });
  }

  private onTransaction(e: MessageEvent<string>): void {
    this.lastId = e.lastEventId;
    const t = JSON.parse(e.data) as { hash: string; status: { kind: string }; block_height?: number };
    const final =
      t.status.kind === 'Committed' || t.status.kind === 'Rejected' || t.status.kind === 'Expired';
    if (!final) return;
    this.push({
      id: e.lastEventId,
      kind: 'transaction',
      hash: t.hash,
      status: t.status.kind,
      ...(t.block_height === undefined ? {} : { height: t.block_height }),
      atMs: Date.now(),
    });
  }

  private onData(e: MessageEvent<string>): void {
    this.lastId = e.lastEventId;
    const d = JSON.parse(e.data) as DataEvent & { transaction_hash?: string };
    if (d.transaction_hash === undefined) return;
    const list = this.txEvents.get(d.transaction_hash) ?? [];
    list.push({ ...(d.block_height === undefined ? {} : { block_height: d.block_height }), data: d.data });
    this.txEvents.set(d.transaction_hash, list);
    if (this.txEvents.size > TX_EVENTS_MAX) this.txEvents.delete(this.txEvents.keys().next().value as string);
  }
}
