// Load and commit tracking for the soak test. Transactions go to POST /transaction over keep-alive
// connections; their final statuses come back on a WebSocket subscription to GET /events filtered to
// final transaction statuses, resumed with `since` if the node ever cuts it (so no commit is missed).
// Latency runs from just before a request is sent to the arrival of its Committed event here.

import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { WebSocket } from 'ws';

const FINAL_FILTER = {
  and: [{ eq: ['kind', 'transaction'] }, { in: ['tx_status', ['Committed', 'Rejected', 'Expired']] }],
};
const RECONNECT_DELAY_MS = 100;

export class CommitTracker {
  /** Accepted (202) and not yet final: hash → send time (performance.now()). */
  readonly pending = new Map<string, number>();
  /** Final events that arrived before their 202 was read. */
  private readonly early = new Map<string, { kind: string; at: number }>();
  readonly finals = new Map<string, number>();
  /** Latencies (ms) of transactions committed since the last `takeWindow()`. */
  private window: number[] = [];
  /** Latencies of transactions sent in the first and the last tenth of the paced phase. */
  readonly firstTenth: number[] = [];
  readonly lastTenth: number[] = [];
  private tenths: { start: number; firstEnd: number; lastStart: number } | undefined;
  private lastId = 0;
  private ws: WebSocket | undefined;
  private stopped = false;
  reconnects = 0;

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    await this.connect(undefined);
  }

  private connect(since: number | undefined): Promise<void> {
    const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/events`);
    this.ws = ws;
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as {
        id: number;
        event: { hash: string; status: { kind: string } };
      };
      this.lastId = m.id;
      this.final(m.event.hash, m.event.status.kind);
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      if (this.stopped) return;
      this.reconnects++;
      void sleep(RECONNECT_DELAY_MS).then(() => this.connect(this.lastId));
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.send(JSON.stringify({ filter: FINAL_FILTER, ...(since === undefined ? {} : { since }) }));
        resolve();
      });
      ws.once('error', reject);
    });
  }

  private final(hash: string, kind: string): void {
    this.finals.set(kind, (this.finals.get(kind) ?? 0) + 1);
    const sentAt = this.pending.get(hash);
    if (sentAt === undefined) {
      this.early.set(hash, { kind, at: performance.now() });
      return;
    }
    this.pending.delete(hash);
    this.record(sentAt, performance.now());
  }

  private record(sentAt: number, at: number): void {
    const ms = at - sentAt;
    this.window.push(ms);
    if (this.tenths === undefined) return;
    if (sentAt >= this.tenths.start && sentAt < this.tenths.firstEnd) this.firstTenth.push(ms);
    else if (sentAt >= this.tenths.lastStart) this.lastTenth.push(ms);
  }

  /** The paced phase runs from `startAt` for `durationMs` (performance.now() clock). */
  setPhase(startAt: number, durationMs: number): void {
    this.tenths = {
      start: startAt,
      firstEnd: startAt + durationMs / 10,
      lastStart: startAt + (9 * durationMs) / 10,
    };
  }

  accepted(hash: string, sentAt: number): void {
    const seen = this.early.get(hash);
    if (seen === undefined) this.pending.set(hash, sentAt);
    else {
      this.early.delete(hash);
      this.record(sentAt, seen.at);
    }
  }

  takeWindow(): number[] {
    const w = this.window;
    this.window = [];
    return w;
  }

  stop(): void {
    this.stopped = true;
    this.ws?.terminate();
  }
}

export interface SendStats {
  sent: number;
  accepted: number;
  refused429: number;
  other: string[];
}

export class Sender {
  readonly stats: SendStats = { sent: 0, accepted: 0, refused429: 0, other: [] };
  private readonly pool: Pool;
  private n = 0;

  constructor(
    url: string,
    connections: number,
    private readonly tracker: CommitTracker,
    private readonly next: (n: number) => Uint8Array,
  ) {
    this.pool = new Pool(url, { connections, pipelining: 1 });
  }

  /** Signs and sends one transaction; resolves when its answer has been read. */
  async sendOne(): Promise<void> {
    const body = this.next(this.n++);
    const sentAt = performance.now();
    this.stats.sent++;
    try {
      const res = await this.pool.request({
        method: 'POST',
        path: '/transaction',
        headers: { 'content-type': 'application/x-codec', accept: 'application/json' },
        body: Buffer.from(body),
      });
      const json = (await res.body.json()) as { tx_hash?: string; code?: string };
      if (res.statusCode === 202 && json.tx_hash !== undefined) {
        this.stats.accepted++;
        this.tracker.accepted(json.tx_hash, sentAt);
      } else if (res.statusCode === 429) this.stats.refused429++;
      else this.stats.other.push(`${res.statusCode} ${json.code}`);
    } catch (e) {
      this.stats.other.push(`transport: ${(e as Error).message}`);
    }
  }

  /** As fast as the node answers, `lanes` requests in flight, until `untilMs` (Date.now()). */
  async closedLoop(lanes: number, untilMs: number): Promise<void> {
    const lane = async () => {
      while (Date.now() < untilMs) await this.sendOne();
    };
    await Promise.all(Array.from({ length: lanes }, lane));
  }

  /**
   * Paced at `ratePerS` until `untilMs`, with at most `inFlightMax` requests outstanding (sends that
   * would exceed it are skipped and counted: the generator, not the node, could not keep up).
   */
  async paced(ratePerS: number, untilMs: number, inFlightMax: number, onTick?: () => void): Promise<number> {
    const tickMs = 10;
    let inFlight = 0;
    let skipped = 0;
    let due = 0;
    const started = performance.now();
    let sentHere = 0;
    while (Date.now() < untilMs) {
      due = ((performance.now() - started) / 1000) * ratePerS;
      while (sentHere < Math.floor(due)) {
        sentHere++;
        if (inFlight >= inFlightMax) {
          skipped++;
          continue;
        }
        inFlight++;
        void this.sendOne().finally(() => inFlight--);
      }
      onTick?.();
      await sleep(tickMs);
    }
    while (inFlight > 0) await sleep(tickMs);
    return skipped;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Final statuses of hashes the event stream did not report (fallback before declaring them lost). */
export async function statusesOf(url: string, hashes: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const h of hashes) {
    const res = await fetch(`${url}/v1/pipeline/transactions/status?hash=${h}`, {
      headers: { accept: 'application/json' },
    });
    const body = (await res.json()) as { status?: string };
    out.set(h, body.status ?? `http ${res.status}`);
  }
  return out;
}
