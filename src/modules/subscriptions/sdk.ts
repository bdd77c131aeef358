// The subscriptions module's SDK functions (docs/subscriptions.md): the instruction builders
// (sdk-instructions.ts, spread into the SDK's `instructions`) and the reads over its routes (routes.ts),
// decoded with the node's own view codecs so the SDK and the node cannot drift. A 404 is a
// ToranaApiError with code `not_found`. The SDK's public surface (src/sdk/index.ts) re-exports these names.

import { getView, type PageOptions } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import { PlanListView, SubscriptionItemView, SubscriptionListView } from './views.js';

export { type PlanInput, subscriptionInstructions } from './sdk-instructions.js';

export type SubscriptionPlanList = ReturnType<typeof PlanListView.fromJson>;
export type SubscriptionItem = ReturnType<typeof SubscriptionItemView.fromJson>;
export type SubscriptionList = ReturnType<typeof SubscriptionListView.fromJson>;

export function subscriptionPlans(client: { http: Http }, opts: PageOptions & { provider?: string } = {}) {
  return getView(client.http, '/v1/subscriptions/plans', { ...opts }, PlanListView);
}

/** `status`: active | paused | past_due | canceled | suspended. */
export function subscriptionsList(
  client: { http: Http },
  opts: PageOptions & { ownedBy?: string; provider?: string; status?: string } = {},
) {
  const { ownedBy, ...rest } = opts;
  return getView(client.http, '/v1/subscriptions', { owned_by: ownedBy, ...rest }, SubscriptionListView);
}

export function subscriptionDetail(client: { http: Http }, id: string) {
  return getView(client.http, `/v1/subscriptions/${encodeURIComponent(id)}`, {}, SubscriptionItemView);
}

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const SUBSCRIPTION_SDK = { subscriptionPlans, subscriptionsList, subscriptionDetail } as const;
