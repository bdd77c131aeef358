// Subscription reads over the node's routes (src/subscriptions/routes.ts),
// decoded with the node's own view codecs so the SDK and the node cannot drift. A 404 is a ToranaApiError
// with code `not_found`.

import type { Codec } from '../codec/codec.js';
import { PlanListView, SubscriptionItemView, SubscriptionListView } from '../subscriptions/views.js';
import { decodeAnswer } from './answers.js';
import type { Http } from './http.js';

export type SubscriptionPlanList = ReturnType<typeof PlanListView.fromJson>;
export type SubscriptionItem = ReturnType<typeof SubscriptionItemView.fromJson>;
export type SubscriptionList = ReturnType<typeof SubscriptionListView.fromJson>;

type Query = Record<string, string | number | undefined>;

/** GET `path?query` decoded with `view` (also used by the ledger modules' SDK reads). */
export async function getView<T>(http: Http, path: string, query: Query, view: Codec<T>): Promise<T> {
  const q = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  const full = q === '' ? path : `${path}?${q}`;
  const json = await http.json({ method: 'GET', path: full });
  return decodeAnswer(view, json, path);
}

export interface PageOptions {
  limit?: number;
  offset?: number;
}

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
