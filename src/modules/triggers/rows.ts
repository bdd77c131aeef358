// The trigger rows (table 0x19) and their due-index rows (table 0x1a, docs/triggers.md), written together:
// by the trigger instructions and their runs, and by the ledger-made runs the core schedules through
// state/module-host.ts `ScheduledRuns` (scheduled.ts).

import type { ExecContext } from '../../state/exec-context.js';
import { dueKey } from './model.js';
import type { Trigger } from './row.js';

/** Writes a trigger row and its due-index row (replacing the old due row when the due changed). */
export function putTrigger(x: ExecContext, trigger: Trigger): void {
  const old = x.t.trigger.get(trigger.id);
  if (old !== undefined) x.t.triggerDue.delete(dueKey(old.due, old.id));
  x.t.trigger.set(trigger.id, trigger);
  x.t.triggerDue.set(dueKey(trigger.due, trigger.id), { trigger: trigger.id, due: trigger.due });
}

/** Removes a trigger and its due-index row; false when there is none. */
export function dropTrigger(x: ExecContext, id: string): boolean {
  const old = x.t.trigger.get(id);
  if (old === undefined) return false;
  x.t.triggerDue.delete(dueKey(old.due, id));
  x.t.trigger.delete(id);
  return true;
}
