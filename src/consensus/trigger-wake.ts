// Waking an idle engine for a time trigger (docs/triggers.md "Idle chains"): the committed state names the
// next time trigger's due time; once the clock reaches it, the engine makes a block even with no
// transactions waiting, and the block's execution runs the trigger. Both engines (single-peer and BFT)
// use this; height triggers never wake an idle chain (an every-block trigger would become a heartbeat).

import type { Clock, Timer } from '../util/clock.js';

/** A far trigger (a monthly charge) is looked at again every minute, so a jumping wall clock cannot skew it. */
export const TRIGGER_RECHECK_MS = 60_000;

export interface TriggerSource {
  readonly clock: Clock;
  /** The due time of the next time trigger in the committed state, or undefined when there is none. */
  triggerDueMs(): number | undefined;
}

export class TriggerWake {
  private timer: Timer | undefined;

  constructor(
    private readonly host: TriggerSource,
    private readonly onDue: () => void,
  ) {}

  /** Whether a time trigger is due by now (an empty block would run it). */
  due(): boolean {
    const at = this.host.triggerDueMs();
    return at !== undefined && at <= this.host.clock.nowMs();
  }

  /** Arms one timer for the next time trigger (replacing any); it does not keep the process alive. */
  arm(): void {
    this.cancel();
    const at = this.host.triggerDueMs();
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
