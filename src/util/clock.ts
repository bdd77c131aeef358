// Time as an injected dependency: the node reads wall-clock time and arms
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
  /**
   * Timers do not keep the process alive unless `keepAlive` (work is pending on them). A delay of 0
   * means "after the work already queued" (the next turn of the event loop), not "after 1 ms".
   */
  setTimeout(fn: () => void, ms: number, opts?: { keepAlive?: boolean }): Timer;
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimeout(fn, ms, opts) {
    if (ms <= 0) {
      // Node's timers wait at least 1 ms; the next turn of the loop is what a zero delay asks for.
      const i = setImmediate(fn);
      if (opts?.keepAlive !== true) i.unref();
      return { cancel: () => clearImmediate(i) };
    }
    const t = setTimeout(fn, ms);
    if (opts?.keepAlive !== true) t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};
