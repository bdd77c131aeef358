// Reads of the trigger and subscription tables (docs/triggers.md, docs/subscriptions.md): copies, sorted
// by id, through the tables' indexes; and the next due trigger, which the block producer reads to make a
// block when a trigger falls due on an idle chain.

import type { Subscription, SubscriptionPlan } from '../model/subscriptions.js';
import type { Trigger } from '../model/trigger-row.js';
import { deepCopy } from './copy.js';
import { lowerBound } from './table.js';
import type { IndexName } from './tables.js';
import type { WorldState } from './world-state.js';

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

export function plan(state: WorldState, id: string): SubscriptionPlan | undefined {
  const v = state.tables.subscriptionPlan.get(id);
  return v === undefined ? undefined : deepCopy(v);
}

export function plans(state: WorldState, provider?: string): SubscriptionPlan[] {
  const t = state.tables.subscriptionPlan;
  const ids = provider === undefined ? t.sortedIds() : t.sortedChildIds('plansByProvider', provider);
  return ids.map((id) => deepCopy(t.get(id)!));
}

export function subscription(state: WorldState, id: string): Subscription | undefined {
  const v = state.tables.subscription.get(id);
  return v === undefined ? undefined : deepCopy(v);
}

export interface SubscriptionFilter {
  subscriber?: string | undefined;
  provider?: string | undefined;
  status?: Subscription['status']['kind'] | undefined;
}

/** Subscriptions sorted by id, narrowed by subscriber and provider (through their indexes) and status. */
export function subscriptions(state: WorldState, f: SubscriptionFilter): Subscription[] {
  const t = state.tables.subscription;
  const by = (index: IndexName, parent: string) => t.sortedChildIds(index, parent);
  const ids =
    f.subscriber !== undefined
      ? by('subscriptionsBySubscriber', f.subscriber)
      : f.provider !== undefined
        ? by('subscriptionsByProvider', f.provider)
        : t.sortedIds();
  const out: Subscription[] = [];
  for (const id of ids) {
    const s = t.get(id)!;
    if (f.provider !== undefined && s.provider !== f.provider) continue;
    if (f.status !== undefined && s.status.kind !== f.status) continue;
    out.push(deepCopy(s));
  }
  return out;
}
