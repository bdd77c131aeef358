// The store of the runs the core schedules for later blocks (state/module-host.ts `ScheduledRuns`, e.g.
// the core's billing charges): each is a ledger-made time trigger (`$…` id), written with the same rows
// as a registered one and run by this module's due work like any other.

import type { ScheduledRuns } from '../../state/module-host.js';
import { triggerIdProblem } from './model.js';
import { dropTrigger, putTrigger } from './rows.js';

export const TRIGGER_SCHEDULED_RUNS: ScheduledRuns = {
  schedule(x, run) {
    const old = x.t.trigger.get(run.id);
    putTrigger(x, {
      id: run.id,
      authority: run.authority,
      due: { kind: 'Time', timeMs: run.timeMs },
      runs: old?.runs ?? 0,
      registeredHeight: old?.registeredHeight ?? x.block.height,
      instructions: run.instructions,
    });
  },
  cancel: (x, id) => dropTrigger(x, id),
  labelProblem: (label) => triggerIdProblem(label)?.replace('a trigger id', 'an id'),
};
