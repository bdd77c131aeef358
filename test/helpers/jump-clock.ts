// A fast block clock for served-node tests: the wall clock plus an offset that a test jumps forward
// (months in milliseconds). Timers are real timers of the same delay, and every timer whose due time a
// jump passes fires at once, so an engine waiting for a time trigger wakes up when the test jumps.

import type { Clock, Timer } from '../../src/util/clock.js';

interface Pending {
  due: number;
  fn: () => void;
  done: boolean;
  real: ReturnType<typeof setTimeout> | ReturnType<typeof setImmediate>;
}

export class JumpClock implements Clock {
  #offsetMs = 0;
  #pending = new Set<Pending>();

  nowMs(): number {
    return Date.now() + this.#offsetMs;
  }

  monotonicMs(): number {
    return performance.now() + this.#offsetMs;
  }

  setTimeout(fn: () => void, ms: number, opts?: { keepAlive?: boolean }): Timer {
    const p: Pending = { due: this.nowMs() + ms, fn, done: false, real: undefined as never };
    const fire = () => {
      if (p.done) return;
      p.done = true;
      this.#pending.delete(p);
      fn();
    };
    p.real = ms <= 0 ? setImmediate(fire) : setTimeout(fire, ms);
    if (opts?.keepAlive !== true) p.real.unref();
    this.#pending.add(p);
    return {
      cancel: () => {
        p.done = true;
        this.#pending.delete(p);
      },
    };
  }

  /** Moves time forward by `ms`; timers now due fire on the next turn of the event loop. */
  jump(ms: number): void {
    this.#offsetMs += ms;
    const now = this.nowMs();
    for (const p of [...this.#pending])
      if (p.due <= now)
        setImmediate(() => {
          if (p.done) return;
          p.done = true;
          this.#pending.delete(p);
          p.fn();
        });
  }

  /** Sets the time to `ms` (forward only). */
  jumpTo(ms: number): void {
    if (ms > this.nowMs()) this.jump(ms - this.nowMs());
  }
}
