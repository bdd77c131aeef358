// Adapts the committed world state to the subscription routes' port (subscriptions/port.ts).

import * as reads from '../state/subscription-reads.js';
import type { WorldState } from '../state/world-state.js';
import type { SubscriptionsPort } from '../subscriptions/port.js';

export function subscriptionsPort(state: WorldState): SubscriptionsPort {
  return {
    plans: (provider) => reads.plans(state, provider),
    plan: (id) => reads.plan(state, id),
    subscriptions: (filter) => reads.subscriptions(state, filter),
    subscription: (id) => reads.subscription(state, id),
  };
}
