// Reads of the trigger tables (docs/triggers.md): copies, sorted by id, through the tables' indexes; and
// the next due trigger of each kind, whose time wakes an idle chain (this module's due work).

import { deepCopy } from '../../state/copy.js';
import { lowerBound } from '../../state/table.js';
import type { WorldState } from '../../state/world-state.js';
import type { TriggersPort } from './routes.js';
import type { Trigger } from './row.js';

export function trigger(state: WorldState, id: string): Trigger | undefined {
  const v = state.tables.trigger.get(id);
  return v === undefined ? undefined : deepCopy(v);
}

/** Triggers sorted by id; only those of `authority` when given. */
export function triggers(state: WorldState, authority?: string): Trigger[] {
  const t = state.tables.trigger;
  const ids = authority === undefined ? t.sortedIds() : t.sortedChildIds('triggersByAuthority', authority);
  return ids.map((id) => deepCopy(t.get(id)!));
}

/** The earliest committed due of each kind: a height, and a block time in milliseconds. */
export function nextTriggerDue(state: WorldState): { height?: number; timeMs?: number } {
  const ids = state.tables.triggerDue.sortedIds();
  const out: { height?: number; timeMs?: number } = {};
  for (const kind of ['h', 't'] as const) {
    const id = ids[lowerBound(ids, `${kind}:`)];
    if (id === undefined || !id.startsWith(`${kind}:`)) continue;
    const row = state.tables.triggerDue.get(id)!;
    if (row.due.kind === 'Height') out.height = row.due.height;
    else out.timeMs = row.due.timeMs;
  }
  return out;
}

/** The trigger routes' port over the committed world state. */
export function triggerReadPort(state: WorldState): TriggersPort {
  return { triggers: (authority) => triggers(state, authority), trigger: (id) => trigger(state, id) };
}
