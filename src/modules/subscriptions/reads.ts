// Reads of the subscription tables (docs/subscriptions.md): copies, sorted by id, through the tables'
// indexes.

import { deepCopy } from '../../state/copy.js';
import type { IndexName } from '../../state/tables.js';
import type { WorldState } from '../../state/world-state.js';
import type { Subscription, SubscriptionPlan } from './model.js';
import type { SubscriptionsPort } from './port.js';

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

export type { SubscriptionFilter } from './port.js';

import type { SubscriptionFilter } from './port.js';

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

/** The committed world state adapted to the routes' port (port.ts). */
export function subscriptionsPort(state: WorldState): SubscriptionsPort {
  return {
    plans: (provider) => plans(state, provider),
    plan: (id) => plan(state, id),
    subscriptions: (filter) => subscriptions(state, filter),
    subscription: (id) => subscription(state, id),
  };
}
