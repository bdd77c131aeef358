// Waking an idle engine for a time trigger (docs/triggers.md "Idle chains"): the committed state names the
// next time trigger's due time; once the clock reaches it, the engine makes a block even with no
// transactions waiting, and the block's execution runs the trigger. Both engines (single-peer and BFT)
// use this; height triggers never wake an idle chain (an every-block trigger would become a heartbeat).
// Nor does a time trigger wake it sooner than one block time (the chain parameter BlockTimeMs) after the
// newest block: an idle chain makes at most one trigger-wake block per block time, however soon triggers
// fall due (RegisterTrigger refuses a repeat faster than BlockTimeMs, and rows from before that rule or
// many triggers due at different times would otherwise each ask for a block of their own).

import type { Clock, Timer } from '../util/clock.js';

/** A far trigger (a monthly charge) is looked at again every minute, so a jumping wall clock cannot skew it. */
export const TRIGGER_RECHECK_MS = 60_000;

export interface TriggerSource {
  readonly clock: Clock;
  /** The due time of the next time trigger in the committed state, or undefined when there is none. */
  triggerDueMs(): number | undefined;
  /** The creation time of the newest committed block (undefined before any): wakes keep a block time after it. */
  lastBlockTimeMs?(): number | undefined;
  /** The chain parameter BlockTimeMs. */
  blockTimeMs?(): number;
}

/** When an idle chain makes a block for a trigger due at `dueMs`: no sooner than a block time after the last. */
export function wakeAtMs(dueMs: number, lastBlockMs: number | undefined, blockTimeMs: number): number {
  return lastBlockMs === undefined ? dueMs : Math.max(dueMs, lastBlockMs + blockTimeMs);
}

export class TriggerWake {
  private timer: Timer | undefined;

  constructor(
    private readonly host: TriggerSource,
    private readonly onDue: () => void,
  ) {}

  /** When the next trigger-wake block is to be made, or undefined when no time trigger is scheduled. */
  private wakeAt(): number | undefined {
    const due = this.host.triggerDueMs();
    if (due === undefined) return undefined;
    return wakeAtMs(due, this.host.lastBlockTimeMs?.(), this.host.blockTimeMs?.() ?? 0);
  }

  /** Whether a time trigger is due by now and a block time has passed since the last block. */
  due(): boolean {
    const at = this.wakeAt();
    return at !== undefined && at <= this.host.clock.nowMs();
  }

  /** Arms one timer for the next time trigger (replacing any); it does not keep the process alive. */
  arm(): void {
    this.cancel();
    const at = this.wakeAt();
    if (at === undefined) return;
    // Capped: a timer delay above 2^31 ms would fire at once in Node.
    const waitMs = Math.min(TRIGGER_RECHECK_MS, Math.max(0, at - this.host.clock.nowMs()));
    this.timer = this.host.clock.setTimeout(() => this.onDue(), waitMs);
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
