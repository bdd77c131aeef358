// Simulated time: a Clock over an event queue ordered by (time, seq). A zero delay runs after every
// event already queued for the same instant. `run` pops one event at a time and, after each, lets the
// promise chains it started settle (all simulated I/O resolves through this queue, never through real
// I/O), so the interleaving is a function of the seed alone.

import type { Clock, Timer } from '../util/clock.js';

interface SimEvent {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A binary min-heap on (at, seq). */
class EventHeap {
  private readonly xs: SimEvent[] = [];
  get size(): number {
    return this.xs.length;
  }
  private less(i: number, j: number): boolean {
    const a = this.xs[i]!;
    const b = this.xs[j]!;
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
  private swap(i: number, j: number): void {
    const t = this.xs[i]!;
    this.xs[i] = this.xs[j]!;
    this.xs[j] = t;
  }
  push(e: SimEvent): void {
    this.xs.push(e);
    let i = this.xs.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): SimEvent | undefined {
    const top = this.xs[0];
    const last = this.xs.pop();
    if (this.xs.length > 0 && last !== undefined) {
      this.xs[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.xs.length && this.less(l, m)) m = l;
        if (r < this.xs.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}

/** Lets every promise reaction already queued run (microtasks drain fully before a macrotask). */
export function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

export class SimClock implements Clock {
  private now = 0;
  private seq = 0;
  private readonly queue = new EventHeap();
  events = 0;

  constructor(private readonly epochMs: number) {}

  nowMs(): number {
    return this.epochMs + this.now;
  }

  monotonicMs(): number {
    return this.now;
  }

  /** Simulated milliseconds since the start. */
  get elapsedMs(): number {
    return this.now;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    const e: SimEvent = { at: this.now + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.queue.push(e);
    return { cancel: () => (e.cancelled = true) };
  }

  /**
   * Runs events in order until `untilMs` or until `stop()` says so (checked after each event).
   * `afterEach` runs after each event once its promise chains have settled.
   */
  async run(untilMs: number, afterEach: () => boolean): Promise<void> {
    for (;;) {
      const e = this.queue.pop();
      if (e === undefined) {
        this.now = untilMs;
        return;
      }
      if (e.cancelled) continue;
      if (e.at > untilMs) {
        this.queue.push(e);
        this.now = untilMs;
        return;
      }
      this.now = e.at;
      this.events++;
      e.fn();
      await settle();
      if (!afterEach()) return;
    }
  }
}
