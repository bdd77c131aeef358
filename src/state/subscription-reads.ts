// Reads of the subscription tables (docs/subscriptions.md): copies, sorted by id, through the tables'
// indexes.

import type { Subscription, SubscriptionPlan } from '../model/subscriptions.js';
import { deepCopy } from './copy.js';
import type { IndexName } from './tables.js';
import type { WorldState } from './world-state.js';

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
