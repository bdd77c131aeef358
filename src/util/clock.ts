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
