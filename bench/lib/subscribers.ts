// Many event subscribers in the bench process, for the fan-out figures: SSE clients on
// `GET /v1/events/sse` (raw node:http, no per-client library overhead) and WebSocket clients on
// `GET /events` (ws), each filtered to block commit events. Each receipt is recorded as (height,
// epoch ms) so delivery latency can be computed against the node's own publish time afterwards.

import { type ClientRequest, request } from 'node:http';
import WebSocket from 'ws';

/** Only block commit events: one per block, so the client side can keep up with every subscriber. */
export const BLOCK_COMMITTED_FILTER = {
  and: [{ eq: ['kind', 'block'] }, { eq: ['block_status', 'Committed'] }],
};
/** Subscribers connected at once while setting up, so the node's accept queue never overflows. */
const CONNECT_BATCH = 200;

export interface Receipts {
  /** Receipt times (epoch ms) by block height, over all subscribers. */
  byHeight: Map<number, number[]>;
  /** Subscribers whose stream ended or failed (lagged, refused, reset). */
  closed: number;
  closeReasons: Map<string, number>;
}

export interface Subscribers {
  receipts: Receipts;
  open: number;
  close(): void;
}

function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

function record(r: Receipts, height: unknown): void {
  if (typeof height !== 'number') return;
  const list = r.byHeight.get(height) ?? [];
  list.push(epochNow());
  r.byHeight.set(height, list);
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
              record(r, heightOf(JSON.parse(data.slice(5))));
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
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events`);
    ws.on('open', () => {
      ws.send(JSON.stringify({ filter: BLOCK_COMMITTED_FILTER }));
      resolve(ws);
    });
    ws.on('message', (data, binary) => {
      if (!binary) record(r, heightOf(JSON.parse(String(data))));
    });
    ws.on('close', (code) => noteClosed(r, `ws close ${code}`));
    ws.on('error', reject);
  });
}

/** Connects `sse` SSE and `ws` WebSocket subscribers, in batches. */
export async function connectSubscribers(url: string, sse: number, ws: number): Promise<Subscribers> {
  const receipts: Receipts = { byHeight: new Map(), closed: 0, closeReasons: new Map() };
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
