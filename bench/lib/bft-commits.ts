// Commit events seen at every peer of a BFT network, for the bft4_* figures (counted
// on Committed events at every peer). The bench process holds one `GET /events` WebSocket per peer,
// filtered on the server to transaction and block Committed events (JSON text frames
// `{"id": …, "event": …}`). A transaction counts as committed when every tracked peer has announced it;
// its time is the receipt of the last of those announcements in this process.

import WebSocket from 'ws';

/** Server-side filter: one event per committed transaction and one per committed block. */
export const COMMITTED_FILTER = {
  or: [
    { and: [{ eq: ['kind', 'transaction'] }, { eq: ['tx_status', 'Committed'] }] },
    { and: [{ eq: ['kind', 'block'] }, { eq: ['block_status', 'Committed'] }] },
  ],
};
const OPEN_TIMEOUT_MS = 10_000;

function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

interface TxSeen {
  peers: number;
  /** Receipt time (epoch ms) of the announcement that completed the set. */
  allAtMs: number;
}

/** One block commit as a peer announced it. */
export interface BlockSeen {
  peer: number;
  height: number;
  atMs: number;
}

interface EventJson {
  event?: { Transaction?: { hash?: string }; Block?: { height?: number }; kind?: string };
}

/** The transaction hash or block height of a Committed event's JSON form. */
function parse(text: string): { tx: string } | { height: number } | undefined {
  const e = (JSON.parse(text) as EventJson).event as Record<string, unknown> | undefined;
  if (e === undefined) return undefined;
  const body = (e.Transaction ?? e.Block ?? e) as { hash?: unknown; height?: unknown; kind?: unknown };
  const isTx = 'Transaction' in e || body.kind === 'Transaction';
  if (isTx && typeof body.hash === 'string') return { tx: body.hash };
  if (!isTx && typeof body.height === 'number') return { height: body.height };
  return undefined;
}

export class CommitTracker {
  readonly #txs = new Map<string, TxSeen>();
  readonly #sockets: (WebSocket | undefined)[];
  readonly #blockWaiters = new Set<(b: BlockSeen) => void>();
  /** Highest committed height announced by each peer. */
  readonly heights: number[];
  /** Times (epoch ms) at which a transaction became committed at every tracked peer. */
  readonly allCommittedAtMs: number[] = [];
  closedUnexpectedly = 0;
  readonly #tracked: number;

  private constructor(size: number) {
    this.#sockets = Array.from({ length: size }, () => undefined);
    this.heights = Array.from({ length: size }, () => 0);
    this.#tracked = size;
  }

  /** Subscribes to every peer's event stream (resolves once all are open). */
  static async open(urls: readonly string[]): Promise<CommitTracker> {
    const t = new CommitTracker(urls.length);
    await Promise.all(urls.map((url, i) => t.#connect(url, i)));
    return t;
  }

  /** Follows `peer` again after drop (restarted); live events only. */
  reconnect(peer: number, url: string): Promise<void> {
    this.drop(peer);
    return this.#connect(url, peer);
  }

  #connect(url: string, peer: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events`);
      const timer = setTimeout(() => reject(new Error(`${url}/events did not open`)), OPEN_TIMEOUT_MS);
      ws.on('open', () => {
        clearTimeout(timer);
        ws.send(JSON.stringify({ filter: COMMITTED_FILTER }));
        this.#sockets[peer] = ws;
        resolve();
      });
      ws.on('message', (data, binary) => {
        if (!binary) this.#onEvent(peer, String(data));
      });
      ws.on('close', () => {
        if (this.#sockets[peer] === ws) this.closedUnexpectedly++;
      });
      ws.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  }

  #onEvent(peer: number, text: string): void {
    const at = epochNow();
    const e = parse(text);
    if (e === undefined) return;
    if ('height' in e) {
      if (e.height > (this.heights[peer] ?? 0)) this.heights[peer] = e.height;
      for (const w of [...this.#blockWaiters]) w({ peer, height: e.height, atMs: at });
      return;
    }
    const seen = this.#txs.get(e.tx) ?? { peers: 0, allAtMs: 0 };
    seen.peers++;
    this.#txs.set(e.tx, seen);
    if (seen.peers === this.#tracked) {
      seen.allAtMs = at;
      this.allCommittedAtMs.push(at);
    }
  }

  /** When `hashHex` became committed at every tracked peer, or undefined if it has not (yet). */
  committedAtAll(hashHex: string): number | undefined {
    const s = this.#txs.get(hashHex);
    return s !== undefined && s.peers >= this.#tracked ? s.allAtMs : undefined;
  }

  /** Transactions committed at every peer with their completion time in [fromMs, toMs]. */
  countBetween(fromMs: number, toMs: number): number {
    let n = 0;
    for (const t of this.allCommittedAtMs) if (t >= fromMs && t <= toMs) n++;
    return n;
  }

  /** Calls `onBlock` for every block commit any peer announces, until the returned function is called. */
  onBlock(onBlock: (b: BlockSeen) => void): () => void {
    this.#blockWaiters.add(onBlock);
    return () => this.#blockWaiters.delete(onBlock);
  }

  /**
   * Stops following `peer` (killed). Transactions committed meanwhile never reach "every peer": the
   * figures that count them keep every peer running.
   */
  drop(peer: number): void {
    const ws = this.#sockets[peer];
    this.#sockets[peer] = undefined;
    ws?.terminate();
  }

  close(): void {
    for (let i = 0; i < this.#sockets.length; i++) this.drop(i);
  }
}
