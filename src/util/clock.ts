// Time as an injected dependency (style.md "Determinism"): the node reads wall-clock time and arms
// timers only through a Clock, so a simulator can run a cluster on virtual time. The executor and
// consensus decisions never read it directly: block times come from the block header.

export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
  /** Monotonic milliseconds for measuring durations. */
  monotonicMs(): number;
  /** Timers do not keep the process alive unless `keepAlive` (work is pending on them). */
  setTimeout(fn: () => void, ms: number, opts?: { keepAlive?: boolean }): Timer;
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimeout(fn, ms, opts) {
    const t = setTimeout(fn, ms);
    if (opts?.keepAlive !== true) t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

/** A clock that moves only when told to (tests and the simulator). */
export class ManualClock implements Clock {
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  constructor(private now = 1_700_000_000_000) {}
  nowMs(): number {
    return this.now;
  }
  monotonicMs(): number {
    return this.now;
  }
  setTimeout(fn: () => void, ms: number): Timer {
    const t = { at: this.now + ms, fn, live: true };
    this.timers.push(t);
    return {
      cancel: () => {
        t.live = false;
      },
    };
  }
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.now = due.at;
      due.live = false;
      due.fn();
    }
    this.timers = this.timers.filter((t) => t.live);
    this.now = target;
  }
}
