// Drives a node through `node.pipeline.submit` in the same process (no HTTP): the chain builder of the
// restart/replay figures, and the stand-in for the HTTP load figures while the gateway is not wired.
// Final statuses are counted on the event bus: commits are counted on commit events.

import type { EventEnvelope } from '../../src/model/events.js';
import type { Node } from '../../src/node/node.js';
import { toHex } from '../../src/util/hex.js';

/** Submissions started together (admission verifies them concurrently). */
const SUBMIT_CHUNK = 64;
/** Granularity of the paced mode. */
const PACE_TICK_MS = 10;

export interface LoadResult {
  submitted: number;
  refused: number;
  committed: number;
  rejected: number;
  /** Committed within the measuring window (all of them for a run to completion). */
  committedInWindow: number;
  windowSeconds: number;
  /** Submit-to-commit-event latencies in ms, when tracked. */
  latenciesMs: number[];
}

export interface LoadOptions {
  next: () => Uint8Array;
  /** Submit this many and wait until every accepted one is final. */
  total?: number;
  /** Or: submit for this long, and count only what committed inside the window. */
  durationMs?: number;
  inFlightMax: number;
  /** Paced mode: about this many submissions per second instead of as fast as possible. */
  ratePerS?: number;
  trackLatency?: boolean;
}

/** Counts final statuses on the event bus and lets the submit loop wait for room. */
class Tracker {
  readonly r: LoadResult = {
    submitted: 0,
    refused: 0,
    committed: 0,
    rejected: 0,
    committedInWindow: 0,
    windowSeconds: 0,
    latenciesMs: [],
  };
  readonly sentAt = new Map<string, number>();
  windowOpen = true;
  private wake: (() => void) | undefined;
  private readonly off: () => void;

  constructor(
    node: Node,
    private readonly trackLatency: boolean,
  ) {
    this.off = node.pipeline.events.subscribe((env) => this.onEvent(env));
  }

  private onEvent(env: EventEnvelope): void {
    const e = env.event;
    if (e.kind !== 'Transaction') return;
    const s = e.status.kind;
    if (s !== 'Committed' && s !== 'Rejected' && s !== 'Expired') return;
    if (s === 'Committed') {
      this.r.committed++;
      if (this.windowOpen) this.r.committedInWindow++;
    } else this.r.rejected++;
    if (this.trackLatency) {
      const hex = toHex(e.hash);
      const t0 = this.sentAt.get(hex);
      if (t0 !== undefined && s === 'Committed') this.r.latenciesMs.push(performance.now() - t0);
      this.sentAt.delete(hex);
    }
    this.wake?.();
  }

  inFlight(): number {
    return this.r.submitted - this.r.committed - this.r.rejected;
  }

  waitForRoom(room: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.inFlight() <= room) return resolve();
      this.wake = () => {
        if (this.inFlight() > room) return;
        this.wake = undefined;
        resolve();
      };
    });
  }

  /** Submits a chunk; each result is counted as its submission resolves (a microtask), before any
   * block containing it can be announced, so no commit ever arrives for an uncounted transaction. */
  async submit(node: Node, frames: Uint8Array[]): Promise<void> {
    const sentNow = performance.now();
    await Promise.all(
      frames.map((f) =>
        node.pipeline.submit(f).then((res) => {
          if (!res.ok) this.r.refused++;
          else {
            this.r.submitted++;
            if (this.trackLatency) this.sentAt.set(res.hashHex, sentNow);
          }
        }),
      ),
    );
  }

  close(): void {
    this.off();
  }
}

export async function runLoad(node: Node, opts: LoadOptions): Promise<LoadResult> {
  const t = new Tracker(node, opts.trackLatency === true);
  const r = t.r;
  const t0 = performance.now();
  const deadline = opts.durationMs === undefined ? Number.POSITIVE_INFINITY : t0 + opts.durationMs;
  const total = opts.total ?? Number.POSITIVE_INFINITY;
  try {
    let due = 0;
    while (r.submitted + r.refused < total && performance.now() < deadline) {
      let n = Math.min(SUBMIT_CHUNK, total - r.submitted - r.refused);
      if (opts.ratePerS !== undefined) {
        n = Math.min(n, Math.floor(((performance.now() - t0) / 1000) * opts.ratePerS) - due);
        if (n <= 0) {
          await new Promise((res) => setTimeout(res, PACE_TICK_MS));
          continue;
        }
        due += n;
      }
      await t.waitForRoom(opts.inFlightMax - n);
      await t.submit(
        node,
        Array.from({ length: n }, () => opts.next()),
      );
    }
    r.windowSeconds = (Math.min(performance.now(), deadline) - t0) / 1000;
    t.windowOpen = false;
    if (opts.durationMs === undefined) {
      await t.waitForRoom(0);
      r.windowSeconds = (performance.now() - t0) / 1000;
    }
    return r;
  } finally {
    t.close();
  }
}
