// Time triggers (docs/triggers.md): RegisterTrigger / UnregisterTrigger and the reads of the due index
// (table 0x1a, keyed by kind, zero-padded due value and id, so the rows due by a block are the first keys
// of two ranges). Running due triggers is this module's due work (run.ts); the row writes are rows.ts,
// shared with the runs and with the ledger-made runs the core schedules (scheduled.ts).

import type { Instruction } from '../../model/instructions.js';
import { moduleParameter } from '../../model/parameters.js';
import { fail, type Handler } from '../../state/exec-context.js';
import { scheduledRunRefusal } from '../../state/module-host.js';
import type { StateView } from '../../state/state-view.js';
import { lowerBound } from '../../state/table.js';
import { DELETED } from '../../state/table-view.js';
import {
  dueBound,
  isLedgerTrigger,
  TRIGGER_INSTRUCTIONS_MAX,
  TRIGGERS_PER_BLOCK_DEFAULT,
  TRIGGERS_PER_BLOCK_PARAMETER,
  type TriggerDue,
  type TriggerDueRow,
  triggerIdProblem,
} from './model.js';
import { dropTrigger, putTrigger } from './rows.js';

function dueProblem(due: TriggerDue): string | undefined {
  const v = due.kind === 'Height' ? due.height : due.timeMs;
  return Number.isSafeInteger(v) && v >= 1 ? undefined : 'the due height or time must be at least 1';
}

export const registerTrigger: Handler<'RegisterTrigger'> = (x, ins) => {
  const bad =
    triggerIdProblem(ins.id) ??
    dueProblem(ins.due) ??
    (ins.repeat !== undefined && (ins.repeat.kind === 'EveryBlocks' ? ins.repeat.blocks : ins.repeat.ms) < 1
      ? 'a repeat interval must be at least 1'
      : undefined) ??
    (ins.instructions.length === 0 || ins.instructions.length > TRIGGER_INSTRUCTIONS_MAX
      ? `a trigger carries 1..${TRIGGER_INSTRUCTIONS_MAX} instructions`
      : undefined);
  if (bad !== undefined) return fail('trigger_invalid', bad);
  // A time trigger repeating faster than blocks are made would ask for a block per repeat (an idle
  // chain would make blocks for it alone): no faster than the chain's block time.
  const blockTimeMs = x.view.parameters().blockTimeMs;
  if (ins.repeat?.kind === 'EveryMs' && ins.repeat.ms < blockTimeMs)
    return fail('trigger_repeat_too_fast', `EveryMs ${ins.repeat.ms} is below BlockTimeMs ${blockTimeMs}`);
  if (x.t.trigger.has(ins.id)) return fail('already_exists', `trigger ${ins.id} exists`);
  const max = triggersPerAccount(x.view);
  const held = x.t.trigger.children('triggersByAuthority', x.authority).filter((id) => !isLedgerTrigger(id));
  if (held.length >= max)
    return fail(
      'trigger_limit',
      `${x.authority} holds ${held.length} triggers (TriggersPerAccountMax ${max})`,
    );
  putTrigger(x, {
    id: ins.id,
    authority: x.authority,
    due: ins.due,
    ...(ins.repeat === undefined ? {} : { repeat: ins.repeat }),
    runs: 0,
    registeredHeight: x.block.height,
    instructions: ins.instructions as Instruction[],
  });
  x.emit({ kind: 'TriggerRegistered', id: ins.id, authority: x.authority, due: ins.due });
  return undefined;
};

/** Only the trigger's authority (or, without permission checks, genesis) may remove it. */
export const unregisterTrigger: Handler<'UnregisterTrigger'> = (x, ins) => {
  // A `$` id is a run another module schedules: that module words the refusal (state/module-host.ts).
  if (isLedgerTrigger(ins.id))
    return fail('trigger_reserved', scheduledRunRefusal(ins.id) ?? `${ins.id} is made by the ledger`);
  const row = x.t.trigger.get(ins.id);
  if (row === undefined) return fail('trigger_not_found', `no trigger ${ins.id}`);
  if (x.checkPermissions && row.authority !== x.authority)
    return fail('permission_denied', `only ${row.authority} may unregister ${ins.id}`);
  dropTrigger(x, ins.id);
  x.emit({ kind: 'TriggerUnregistered', id: ins.id });
  return undefined;
};

/** The custom parameter `triggers_per_block_max` (1..1024), or the default. */
export function triggersPerBlock(view: StateView): number {
  const v = view.parameters().custom.get(TRIGGERS_PER_BLOCK_PARAMETER);
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= 1024
    ? v
    : TRIGGERS_PER_BLOCK_DEFAULT;
}

/** The parameter `TriggersPerAccountMax` (kept as custom `triggers_per_account_max`), or the default. */
export function triggersPerAccount(view: Pick<StateView, 'parameters'>): number {
  return moduleParameter(view.parameters(), 'TriggersPerAccountMax');
}

/** Due-index rows of one kind due at or before `value`, in key order (due, id), at most `max`. */
function dueOfKind(view: StateView, kind: 'h' | 't', value: number, max: number): TriggerDueRow[] {
  if (max <= 0) return [];
  const table = view.t.triggerDue;
  const from = `${kind}:`;
  const bound = dueBound(kind, value);
  const ids: string[] = [];
  const base = table.base.sortedIds();
  // Rows deleted in this block are among the overlay's writes, so this many base keys always suffice.
  const want = max + table.writes.size;
  for (let i = lowerBound(base, from); i < base.length && base[i]! < bound && ids.length < want; i++)
    ids.push(base[i]!);
  for (const [id, slot] of table.writes)
    if (slot !== DELETED && id >= from && id < bound && table.base.get(id) === undefined) ids.push(id);
  const rows: TriggerDueRow[] = [];
  for (const id of ids.sort()) {
    const row = table.get(id);
    if (row !== undefined) rows.push(row);
    if (rows.length === max) break;
  }
  return rows;
}

/**
 * The triggers due in a block at (height, timeMs), in the deterministic order: those due by height
 * (height, id), then those due by time (time, id), at most `max` in all; the rest stay due.
 */
export function dueTriggers(view: StateView, height: number, timeMs: number, max: number): string[] {
  const byHeight = dueOfKind(view, 'h', height, max);
  const byTime = dueOfKind(view, 't', timeMs, max - byHeight.length);
  return [...byHeight, ...byTime].map((r) => r.trigger);
}
