// What the subscription routes read from the node (docs/design/architecture.md "Application
// families": families see small interfaces). The node adapts its committed world state to it
// (reads.ts `subscriptionsPort`).

import type { Subscription, SubscriptionPlan } from './model.js';

export interface SubscriptionFilter {
  subscriber?: string | undefined;
  provider?: string | undefined;
  status?: Subscription['status']['kind'] | undefined;
}

/** Committed rows, sorted by id; answers are copies the caller may keep. */
export interface SubscriptionsPort {
  plans(provider?: string): SubscriptionPlan[];
  plan(id: string): SubscriptionPlan | undefined;
  subscriptions(filter: SubscriptionFilter): Subscription[];
  subscription(id: string): Subscription | undefined;
}
