// Waking an idle engine for timed due work (state/module-host.ts): the committed state names the time the
// next due work falls due; once the clock reaches it, the engine makes a block even with no transactions
// waiting, and the block's execution runs the work. Both engines (single-peer and BFT) use this; work due
// by height never wakes an idle chain (work due every block would become a heartbeat). Nor does due work
// wake it sooner than one block time (the chain parameter BlockTimeMs) after the newest block: an idle
// chain makes at most one wake block per block time, however soon work falls due (many items due at
// different times would otherwise each ask for a block of their own).

import { assert } from '../util/assert.js';
import type { Clock, Timer } from '../util/clock.js';

/** Far due work (a monthly charge) is looked at again every minute, so a jumping wall clock cannot skew it. */
export const DUE_RECHECK_MS = 60_000;

export interface DueWorkSource {
  readonly clock: Clock;
  /** The time the next timed due work falls due in the committed state, or undefined when there is none. */
  dueWorkAtMs(): number | undefined;
  /** The creation time of the newest committed block (undefined before any): wakes keep a block time after it. */
  lastBlockTimeMs?(): number | undefined;
  /** The chain parameter BlockTimeMs. */
  blockTimeMs?(): number;
}

/** When an idle chain makes a block for work due at `dueMs`: no sooner than a block time after the last. */
export function wakeAtMs(dueMs: number, lastBlockMs: number | undefined, blockTimeMs: number): number {
  // Block times and a chain parameter: a NaN would arm a timer that fires at once, again and again.
  assert(
    Number.isFinite(dueMs) && (lastBlockMs === undefined || Number.isFinite(lastBlockMs)) && blockTimeMs >= 0,
    `a wake for work due at ${dueMs} after a block at ${lastBlockMs} (block time ${blockTimeMs})`,
  );
  return lastBlockMs === undefined ? dueMs : Math.max(dueMs, lastBlockMs + blockTimeMs);
}

export class DueWake {
  private timer: Timer | undefined;

  constructor(
    private readonly host: DueWorkSource,
    private readonly onDue: () => void,
  ) {}

  /** When the next wake block is to be made, or undefined when no timed due work is scheduled. */
  private wakeAt(): number | undefined {
    const due = this.host.dueWorkAtMs();
    if (due === undefined) return undefined;
    return wakeAtMs(due, this.host.lastBlockTimeMs?.(), this.host.blockTimeMs?.() ?? 0);
  }

  /** Whether timed due work is due by now and a block time has passed since the last block. */
  due(): boolean {
    const at = this.wakeAt();
    return at !== undefined && at <= this.host.clock.nowMs();
  }

  /** Arms one timer for the next timed due work (replacing any); it does not keep the process alive. */
  arm(): void {
    this.cancel();
    const at = this.wakeAt();
    if (at === undefined) return;
    // Capped: a timer delay above 2^31 ms would fire at once in Node.
    const waitMs = Math.min(DUE_RECHECK_MS, Math.max(0, at - this.host.clock.nowMs()));
    assert(waitMs >= 0 && waitMs <= DUE_RECHECK_MS, `a due-work wake in ${waitMs} ms`);
    this.timer = this.host.clock.setTimeout(() => this.onDue(), waitMs);
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
