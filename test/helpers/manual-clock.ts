// A Clock whose time moves only when a test says so; timers fire in due order on `advance`.
import type { Clock, Timer } from '../../src/util/clock.js';

interface Pending {
  due: number;
  seq: number;
  fn: () => void;
  ms: number;
  cancelled: boolean;
}

export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: Pending[] = [];
  /** Every delay ever asked for, in order (cancelled ones included). */
  readonly requested: number[] = [];

  constructor(startMs = 1_700_000_000_000) {
    this.#now = startMs;
  }

  nowMs(): number {
    return this.#now;
  }

  monotonicMs(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    const t: Pending = { due: this.#now + ms, seq: this.#seq++, fn, ms, cancelled: false };
    this.#timers.push(t);
    this.requested.push(ms);
    return {
      cancel: () => {
        t.cancelled = true;
      },
    };
  }

  /** Delays of the timers still pending. */
  pending(): number[] {
    return this.#timers.filter((t) => !t.cancelled).map((t) => t.ms);
  }

  /** Moves time forward, firing every timer due by then (including ones armed while firing). */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const live = this.#timers.filter((t) => !t.cancelled && t.due <= end);
      if (live.length === 0) break;
      live.sort((a, b) => a.due - b.due || a.seq - b.seq);
      const next = live[0]!;
      next.cancelled = true;
      this.#now = Math.max(this.#now, next.due);
      next.fn();
    }
    this.#timers = this.#timers.filter((t) => !t.cancelled);
    this.#now = end;
  }
}
