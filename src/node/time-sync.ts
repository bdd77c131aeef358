// Clock offsets from the peers, as NTP measures them (GET /v1/time/now, /v1/time/status): every
// SAMPLE_INTERVAL_MS this node sends each connected peer a request stamped t0 (its clock); the peer
// answers with t1 (when the request arrived) and t2 (when it answered), by its clock; the answer arrives
// at t3. offset = ((t1 − t0) + (t2 − t3)) / 2 (how far the peer's clock is ahead of this one), delay =
// (t3 − t0) − (t2 − t1) (the round trip, the peer's own time excluded). Per peer the newest WINDOW
// samples are kept and the one of least delay gives the peer's offset (NTP's clock filter); the node's
// offset is the median over peers, its confidence half the median of those samples' delays (the bound
// of a sample's error). With fewer than MIN_SAMPLES samples in all, the answer is the fallback: offset 0,
// `fallback: true`. Only the gateway reads this: consensus and the executor never do.
//
// The messages share the peer channel with consensus and the ledger modules' own messages, told apart by
// the magic `TRTS` (consensus messages begin with an enum tag below 0x54; a module's with its own magic).

import type { PeerTimeReport, TimeReport } from '../gateway/ports.js';
import type { Clock, Timer } from '../util/clock.js';

export const TIME_MAGIC = Uint8Array.of(0x54, 0x52, 0x54, 0x53); // "TRTS"
const REQUEST = 1;
const ANSWER = 2;
const REQUEST_BYTES = 4 + 1 + 8;
const ANSWER_BYTES = 4 + 1 + 3 * 8;

/** Period of the requests to each connected peer. */
export const SAMPLE_INTERVAL_MS = 2_000;
/** Samples kept per peer (the newest). */
export const WINDOW = 8;
/** Samples (all peers together) below which the answer is the fallback. */
export const MIN_SAMPLES = 3;
/** A peer's requests answered at most this often; more are dropped (counted). */
export const ANSWER_MIN_GAP_MS = 250;
/** Upper bounds (ms) of the round-trip histogram of /v1/time/status, cumulative as Prometheus's `le`. */
export const RTT_BUCKETS_MS = [1, 5, 10, 50, 100, 500, 1_000, 5_000] as const;

export interface TimeSample {
  offsetMs: number;
  delayMs: number;
}

export function isTimeMessage(bytes: Uint8Array): boolean {
  if (bytes.length < TIME_MAGIC.length) return false;
  for (let i = 0; i < TIME_MAGIC.length; i++) if (bytes[i] !== TIME_MAGIC[i]) return false;
  return true;
}

function message(kind: number, stamps: number[]): Uint8Array {
  const out = new Uint8Array(TIME_MAGIC.length + 1 + stamps.length * 8);
  out.set(TIME_MAGIC);
  out[4] = kind;
  const view = new DataView(out.buffer);
  for (const [i, t] of stamps.entries()) view.setFloat64(5 + i * 8, t, true);
  return out;
}

function stamps(bytes: Uint8Array, count: number): number[] | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const out = Array.from({ length: count }, (_, i) => view.getFloat64(5 + i * 8, true));
  return out.every(Number.isFinite) ? out : undefined;
}

/** offset and delay of one exchange (t0, t3 by this clock; t1, t2 by the peer's). */
export function ntpSample(t0: number, t1: number, t2: number, t3: number): TimeSample {
  return { offsetMs: (t1 - t0 + (t2 - t3)) / 2, delayMs: Math.max(0, t3 - t0 - (t2 - t1)) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface TimeSyncOptions {
  clock: Clock;
  send(peer: string, bytes: Uint8Array): void;
  /** Peer ids with a live session now. */
  connected(): string[];
}

export class TimeSync {
  private readonly windows = new Map<string, TimeSample[]>();
  private readonly counts = new Map<string, number>();
  /** The t0 of the request in flight to each peer (one at a time: an answer must name it). */
  private readonly inFlight = new Map<string, number>();
  private readonly answeredAt = new Map<string, number>();
  private timer: Timer | undefined;
  /** Messages refused: malformed, unasked answers, requests over the rate. */
  refused = 0;

  constructor(private readonly o: TimeSyncOptions) {}

  start(): void {
    const tick = () => {
      this.sample();
      this.timer = this.o.clock.setTimeout(tick, SAMPLE_INTERVAL_MS);
    };
    this.timer = this.o.clock.setTimeout(tick, SAMPLE_INTERVAL_MS);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** One request to each connected peer (forgets peers no longer connected). */
  sample(): void {
    const live = new Set(this.o.connected());
    for (const m of [this.windows, this.counts, this.inFlight, this.answeredAt])
      for (const p of [...m.keys()]) if (!live.has(p)) m.delete(p);
    for (const peer of live) {
      const t0 = this.o.clock.nowMs();
      this.inFlight.set(peer, t0);
      this.o.send(peer, message(REQUEST, [t0]));
    }
  }

  /** A `TRTS` message from `from`: answers a request, records an answer. */
  onMessage(from: string, bytes: Uint8Array): void {
    const now = this.o.clock.nowMs();
    if (bytes[4] === REQUEST && bytes.length === REQUEST_BYTES) {
      const s = stamps(bytes, 1);
      const last = this.answeredAt.get(from);
      if (s === undefined || (last !== undefined && now - last < ANSWER_MIN_GAP_MS)) {
        this.refused++;
        return;
      }
      this.answeredAt.set(from, now);
      this.o.send(from, message(ANSWER, [s[0]!, now, this.o.clock.nowMs()]));
      return;
    }
    if (bytes[4] === ANSWER && bytes.length === ANSWER_BYTES) {
      const s = stamps(bytes, 3);
      if (s === undefined || this.inFlight.get(from) !== s[0]) {
        this.refused++;
        return;
      }
      this.inFlight.delete(from);
      const window = this.windows.get(from) ?? [];
      window.push(ntpSample(s[0]!, s[1]!, s[2]!, now));
      if (window.length > WINDOW) window.shift();
      this.windows.set(from, window);
      this.counts.set(from, (this.counts.get(from) ?? 0) + 1);
      return;
    }
    this.refused++;
  }

  report(): TimeReport {
    const peers = this.o.connected();
    const best: TimeSample[] = [];
    const perPeer: PeerTimeReport[] = [];
    let samples = 0;
    const rtts: number[] = [];
    for (const peer of [...this.windows.keys()].sort()) {
      const w = this.windows.get(peer)!;
      if (w.length === 0) continue;
      samples += w.length;
      for (const s of w) rtts.push(s.delayMs);
      best.push(w.reduce((a, b) => (b.delayMs < a.delayMs ? b : a)));
      const last = w[w.length - 1]!;
      perPeer.push({
        peer,
        lastOffsetMs: Math.round(last.offsetMs),
        lastRttMs: Math.round(last.delayMs),
        count: this.counts.get(peer) ?? w.length,
      });
    }
    const fallback = samples < MIN_SAMPLES;
    return {
      peers: peers.length,
      samples,
      offsetMs: fallback ? 0 : Math.round(median(best.map((s) => s.offsetMs))),
      confidenceMs: fallback ? 0 : Math.ceil(median(best.map((s) => s.delayMs)) / 2),
      fallback,
      perPeer,
      rttHistogram: RTT_BUCKETS_MS.map((le) => ({ leMs: le, count: rtts.filter((r) => r <= le).length })),
    };
  }
}
