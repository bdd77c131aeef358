// Subscription reads (docs/subscriptions.md). Public
// ledger state at the committed height; writes are instructions signed by the client, never routes.
//
//   GET /v1/subscriptions/plans        ?provider&limit&offset            → {items: [plan], total}
//   GET /v1/subscriptions              ?owned_by&provider&status&limit&offset
//                                      → {items: [{subscription_id, subscription, invoice?, plan?}], total}
//   GET /v1/subscriptions/{id}         → one such item                   (404 not_found)

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { accountParam } from '../../gateway/id-resolver.js';
import { parsePage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { Subscription, SubscriptionStatus } from './model.js';
import type { SubscriptionsPort } from './port.js';
import { PlanListView, SubscriptionItemView, SubscriptionListView } from './views.js';

const NOTE = 'Public ledger state at the committed height; no signature needed.';
const PAGE = {
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'page size, integer >= 1' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: 'items to skip, integer >= 0' })),
};
const ACCOUNT = (description: string) => Type.Optional(Type.String({ maxLength: 512, description }));
const STATUSES: Record<string, SubscriptionStatus> = {
  active: 'Active',
  paused: 'Paused',
  past_due: 'PastDue',
  canceled: 'Canceled',
  suspended: 'Suspended',
};
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });

function get(url: string, operationId: string, summary: string, tags: string[]) {
  return {
    method: 'GET' as const,
    url,
    operationId,
    summary,
    description: NOTE,
    tags,
    visibility: 'public' as const,
    errorStatuses: [404],
  };
}

/** An account id or name from the query (gateway/id-resolver.ts): 400 neither form, 404 unbound name. */
function accountQuery(d: RouteDeps, text: string | undefined): string | undefined {
  return text === undefined ? undefined : accountParam(d.ports.state, text);
}

function page<T>(
  all: T[],
  q: { limit?: string; offset?: string },
  d: RouteDeps,
): { items: T[]; total: number } {
  const { limit, offset } = parsePage(q, d.limits);
  return { items: all.slice(offset, offset + limit), total: all.length };
}

function itemOf(port: SubscriptionsPort, s: Subscription) {
  const plan = port.plan(s.planId);
  return {
    subscriptionId: s.id,
    subscription: s,
    ...(s.latestInvoice === undefined ? {} : { invoice: s.latestInvoice }),
    ...(plan === undefined ? {} : { plan }),
  };
}

function planRoutes(d: RouteDeps, port: SubscriptionsPort): RouteDef[] {
  return [
    defineRoute({
      ...get('/v1/subscriptions/plans', 'listSubscriptionPlans', 'Subscription plans, by id', [
        'subscriptions',
      ]),
      schema: {
        querystring: Type.Object({ provider: ACCOUNT('only plans of this provider'), ...PAGE }),
        response: { 200: viewSchema(PlanListView) },
      },
      handler: (req, reply) => {
        const all = port.plans(accountQuery(d, req.query.provider));
        return respond(d.schema, req, reply, PlanListView, page(all, req.query, d));
      },
    }),
  ];
}

function subscriptionRoutes(d: RouteDeps, port: SubscriptionsPort): RouteDef[] {
  const statusText = Type.Optional(
    Type.String({ maxLength: 16, description: 'active | paused | past_due | canceled | suspended' }),
  );
  return [
    defineRoute({
      ...get('/v1/subscriptions', 'listSubscriptions', 'Subscriptions with their latest invoice and plan', [
        'subscriptions',
      ]),
      schema: {
        querystring: Type.Object({
          owned_by: ACCOUNT('only subscriptions of this subscriber'),
          provider: ACCOUNT('only subscriptions to plans of this provider'),
          status: statusText,
          ...PAGE,
        }),
        response: { 200: viewSchema(SubscriptionListView) },
      },
      handler: (req, reply) => {
        const q = req.query;
        const status = q.status === undefined ? undefined : STATUSES[q.status];
        if (q.status !== undefined && status === undefined)
          throw gatewayError('bad_request', {
            location: 'query',
            field: 'status',
            expected: Object.keys(STATUSES),
          });
        const all = port.subscriptions({
          subscriber: accountQuery(d, q.owned_by),
          provider: accountQuery(d, q.provider),
          status,
        });
        const { items, total } = page(all, q, d);
        const answer = { items: items.map((s) => itemOf(port, s)), total };
        return respond(d.schema, req, reply, SubscriptionListView, answer);
      },
    }),
    defineRoute({
      ...get(
        '/v1/subscriptions/:id',
        'getSubscription',
        'One subscription with its latest invoice and plan',
        ['subscriptions'],
      ),
      schema: { params: IdParams, response: { 200: viewSchema(SubscriptionItemView) } },
      handler: (req, reply) => {
        const s = port.subscription(req.params.id);
        if (s === undefined) throw gatewayError('not_found', { subscription: req.params.id });
        return respond(d.schema, req, reply, SubscriptionItemView, itemOf(port, s));
      },
    }),
  ];
}

export function subscriptionsRoutes(d: RouteDeps, port: SubscriptionsPort): RouteDef[] {
  return [...planRoutes(d, port), ...subscriptionRoutes(d, port)];
}
