// Event subscribers for the fan-out figures, as run inside a subscriber process (subscriber-child.ts):
// SSE clients on `GET /v1/events/sse` (raw node:http, no per-client library overhead) and WebSocket
// clients on `GET /events` (ws), each filtered to block commit events. Each subscriber keeps the block
// heights it received, in order (completeness and order are checked per subscriber); receipt times go
// into one histogram per height, in 0.1 ms buckets of the epoch clock `performance.timeOrigin +
// performance.now()`, which the node's process reads the same way (node-server.ts), so the parent
// can subtract the node's publish time from them.

import { type ClientRequest, request } from 'node:http';
import WebSocket from 'ws';

/** Only block commit events: one per block, so the client side can keep up with every subscriber. */
export const BLOCK_COMMITTED_FILTER = {
  and: [{ eq: ['kind', 'block'] }, { eq: ['block_status', 'Committed'] }],
};
/** Subscribers connected at once while setting up, so the node's accept queue never overflows. */
const CONNECT_BATCH = 200;
/** Histogram buckets per millisecond. */
export const BUCKETS_PER_MS = 10;

export interface Receipts {
  /** Receipt-time histogram by block height: bucket (epoch ms × BUCKETS_PER_MS) → count. */
  byHeight: Map<number, Map<number, number>>;
  /** Per subscriber, the heights it received, in order of receipt. */
  heights: number[][];
  /** Subscribers whose stream ended or failed (lagged, refused, reset). */
  closed: number;
  closeReasons: Map<string, number>;
}

export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

function record(r: Receipts, seen: number[], height: unknown): void {
  if (typeof height !== 'number') return;
  seen.push(height);
  const bucket = Math.round(epochNow() * BUCKETS_PER_MS);
  let hist = r.byHeight.get(height);
  if (hist === undefined) {
    hist = new Map();
    r.byHeight.set(height, hist);
  }
  hist.set(bucket, (hist.get(bucket) ?? 0) + 1);
}

function noteClosed(r: Receipts, reason: string): void {
  r.closed++;
  r.closeReasons.set(reason, (r.closeReasons.get(reason) ?? 0) + 1);
}

/** The block height in an event's JSON form, wherever the gateway's view puts it. */
function heightOf(json: unknown): unknown {
  const o = json as { height?: unknown; event?: { height?: unknown; Block?: { height?: unknown } } };
  return o.height ?? o.event?.height ?? o.event?.Block?.height;
}

function openSse(url: string, r: Receipts): Promise<ClientRequest> {
  const path = `/v1/events/sse?filter=${encodeURIComponent(JSON.stringify(BLOCK_COMMITTED_FILTER))}`;
  const seen: number[] = [];
  r.heights.push(seen);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { agent: false, headers: { accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`SSE subscription answered ${res.statusCode}`));
          return;
        }
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          const messages = pending.split('\n\n');
          pending = messages.pop() ?? '';
          for (const m of messages) {
            const data = m.split('\n').find((l) => l.startsWith('data:'));
            if (data !== undefined && m.includes('event: block'))
              record(r, seen, heightOf(JSON.parse(data.slice(5))));
          }
        });
        res.on('end', () => noteClosed(r, 'sse ended'));
        resolve(req);
      },
    );
    req.on('error', (e) => {
      noteClosed(r, `sse ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
      reject(e);
    });
    req.end();
  });
}

function openWs(url: string, r: Receipts): Promise<WebSocket> {
  const seen: number[] = [];
  r.heights.push(seen);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events`);
    ws.on('open', () => {
      ws.send(JSON.stringify({ filter: BLOCK_COMMITTED_FILTER }));
      resolve(ws);
    });
    ws.on('message', (data, binary) => {
      if (!binary) record(r, seen, heightOf(JSON.parse(String(data))));
    });
    ws.on('close', (code) => noteClosed(r, `ws close ${code}`));
    ws.on('error', reject);
  });
}

export interface Subscribers {
  receipts: Receipts;
  open: number;
  close(): void;
}

/** Connects `sse` SSE and `ws` WebSocket subscribers, in batches. */
export async function connectSubscribers(url: string, sse: number, ws: number): Promise<Subscribers> {
  const receipts: Receipts = { byHeight: new Map(), heights: [], closed: 0, closeReasons: new Map() };
  const sseClients: ClientRequest[] = [];
  const wsClients: WebSocket[] = [];
  for (let i = 0; i < sse; i += CONNECT_BATCH) {
    const n = Math.min(CONNECT_BATCH, sse - i);
    sseClients.push(...(await Promise.all(Array.from({ length: n }, () => openSse(url, receipts)))));
  }
  for (let i = 0; i < ws; i += CONNECT_BATCH) {
    const n = Math.min(CONNECT_BATCH, ws - i);
    wsClients.push(...(await Promise.all(Array.from({ length: n }, () => openWs(url, receipts)))));
  }
  return {
    receipts,
    open: sseClients.length + wsClients.length,
    close() {
      for (const c of sseClients) c.destroy();
      for (const c of wsClients) c.terminate();
    },
  };
}

/** What a subscriber process reports for the heights from..to (inclusive). */
export interface ReceiptReport {
  subscribers: number;
  /** Deliveries of heights in from..to that did not happen (subscriber × height). */
  missing: number;
  /** Subscribers that received some height twice or out of order. */
  disordered: number;
  /** Subscribers that received every height in from..to. */
  complete: number;
  /** Height → subscribers that lack it (heights some subscriber lacks only). */
  missingByHeight: Record<string, number>;
  closed: number;
  closeReasons: Record<string, number>;
  /** height → [bucket, count] pairs (see BUCKETS_PER_MS). */
  histograms: Record<string, [number, number][]>;
}

export function reportReceipts(r: Receipts, from: number, to: number): ReceiptReport {
  const expected = Math.max(0, to - from + 1);
  let missing = 0;
  let disordered = 0;
  let complete = 0;
  const missingByHeight: Record<string, number> = {};
  for (const seen of r.heights) {
    const got = new Set(seen);
    for (let h = from; h <= to; h++) if (!got.has(h)) missingByHeight[h] = (missingByHeight[h] ?? 0) + 1;
    let inRange = 0;
    let ordered = true;
    for (let i = 0; i < seen.length; i++) {
      const h = seen[i]!;
      if (i > 0 && h <= seen[i - 1]!) ordered = false;
      if (h >= from && h <= to) inRange++;
    }
    if (!ordered) disordered++;
    // Duplicates are counted as disorder, not as deliveries.
    const received = Math.min(inRange, expected);
    missing += expected - received;
    if (received === expected && ordered) complete++;
  }
  const histograms: Record<string, [number, number][]> = {};
  for (const [h, hist] of r.byHeight) if (h >= from && h <= to) histograms[h] = [...hist];
  return {
    subscribers: r.heights.length,
    missing,
    disordered,
    complete,
    missingByHeight,
    closed: r.closed,
    closeReasons: Object.fromEntries(r.closeReasons),
    histograms,
  };
}
