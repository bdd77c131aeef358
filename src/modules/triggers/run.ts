// Running the triggers due in a block (docs/triggers.md "Execution"): this module's due work
// (state/module-host.ts), after the block's transactions, in the order of handlers.ts `dueTriggers`, each run atomic like a transaction (its instructions'
// writes roll back on the first failure), then the trigger's own bookkeeping, which a failure does not
// undo: a one-shot trigger is removed, a repeating one moves to its next due, one whose instructions
// rescheduled it (a run another module schedules) keeps that due. Triggers registered or made due by
// this block's triggers run in a later block.

import { type Rejection, reject } from '../../model/rejections.js';
import { transactionWeight } from '../../model/weights.js';
import type { ExecContext } from '../../state/exec-context.js';
import type { DueRun, DueWork, DueWorkPorts } from '../../state/module-host.js';
import type { StateView } from '../../state/state-view.js';
import { assert } from '../../util/assert.js';
import { dueTriggers, triggersPerBlock } from './handlers.js';
import { dueKey, nextDue, type TriggerDue, triggerRunHash } from './model.js';
import { nextTriggerDue } from './reads.js';
import type { Trigger } from './row.js';
import { dropTrigger, putTrigger } from './rows.js';

/** One trigger run: its id, the pseudo transaction hash of its events, its events (then Executed or Failed). */
export type TriggerRun = DueRun;
type TriggerRunPorts = DueWorkPorts;

/** The triggers module's due work: the triggers due in the block, and the next time trigger for a wake. */
export const TRIGGER_DUE_WORK: DueWork = {
  run: runDueTriggers,
  nextDueMs: (state) => nextTriggerDue(state).timeMs,
};

export function runDueTriggers(
  view: StateView,
  height: number,
  timeMs: number,
  p: TriggerRunPorts,
): TriggerRun[] {
  const runs: TriggerRun[] = [];
  const cap = view.parameters().transactionMaxWeight;
  for (const id of dueTriggers(view, height, timeMs, triggersPerBlock(view))) {
    const trigger = view.t.trigger.get(id);
    assert(trigger !== undefined, `due index names a missing trigger ${id}`);
    // The block's weight is spent: this trigger and those after it stay due for the next block. A run
    // is metered like a transaction, so it never weighs more than the cap (one over it fails there).
    if (!p.fits(Math.min(cap, transactionWeight(trigger.instructions)))) break;
    runs.push(runOne(view, trigger, height, timeMs, p));
  }
  return runs;
}

function runOne(
  view: StateView,
  trigger: Trigger,
  height: number,
  timeMs: number,
  p: TriggerRunPorts,
): TriggerRun {
  const x = p.context(trigger.authority, trigger.id);
  const mark = view.journal.mark();
  let failed: Rejection | undefined;
  try {
    failed = execute(x, trigger, p);
    if (failed !== undefined) {
      view.journal.rollback(mark);
      x.events.length = 0;
    }
  } catch (e) {
    view.journal.rollback(mark);
    throw e;
  }
  const next = settle(x, trigger, height, timeMs);
  const runs = trigger.runs + 1;
  const common = {
    id: trigger.id,
    authority: trigger.authority,
    runs,
    ...(next === undefined ? {} : { next }),
  };
  if (failed === undefined) x.emit({ kind: 'TriggerExecuted', ...common });
  else x.emit({ kind: 'TriggerFailed', ...common, reason: failed });
  view.journal.release(mark);
  p.charge(x);
  return { id: trigger.id, hash: triggerRunHash(height, trigger.id), events: x.events };
}

function execute(x: ExecContext, trigger: Trigger, p: TriggerRunPorts): Rejection | undefined {
  if (!x.t.account.has(trigger.authority))
    return reject('authority_not_found', `no account ${trigger.authority}`);
  for (let i = 0; i < trigger.instructions.length; i++) {
    const f = p.run(x, trigger.instructions[i]!);
    if (f !== undefined) return reject(f.code, p.clip(f.message), i);
  }
  return undefined;
}

/** The trigger's bookkeeping after a run; returns its next due (undefined: removed). */
function settle(x: ExecContext, before: Trigger, height: number, timeMs: number): TriggerDue | undefined {
  const now = x.t.trigger.get(before.id);
  if (now === undefined) return undefined; // its instructions removed it
  if (dueKey(now.due, now.id) !== dueKey(before.due, before.id)) {
    putTrigger(x, { ...now, runs: before.runs + 1 });
    return now.due;
  }
  const next = nextDue(before.due, before.repeat, height, timeMs);
  if (next === undefined) dropTrigger(x, before.id);
  else putTrigger(x, { ...now, due: next, runs: before.runs + 1 });
  return next;
}
