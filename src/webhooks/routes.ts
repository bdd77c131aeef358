// The webhook route table (docs/webhooks.md "Routes"). Every route is node-local
// (RouteDef.nodeLocal) and takes a signed app request or operator credentials (caller.ts):
//   POST   /v1/webhooks                                             register → 201 webhook
//   GET    /v1/webhooks                                             {items, total}: own (operators: all)
//   GET    /v1/webhooks/{id}                                        one, or 404 webhook_not_found
//   DELETE /v1/webhooks/{id}                                        204, or 404
//   GET    /v1/webhooks/{id}/deliveries                             pending (in order), then recent
//   GET    /v1/webhooks/{id}/dead-letters                           {items, total}, oldest first
//   POST   /v1/webhooks/{id}/dead-letters/{delivery_id}/replay      202 delivery, queued again
// Another caller's webhook answers 404 like a missing one, so ids do not leak across owners.

import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { RouteDeps } from '../gateway/deps.js';
import { gatewayError } from '../gateway/errors.js';
import { resolveEventFilter, resolveEventFilterText } from '../gateway/event-ids.js';
import { PageQuerystring, parsePage } from '../gateway/list.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import { type CallerAuth, mayManage, OPERATOR_OWNER } from './caller.js';
import { type Hook, ownerKeyOf, type Registry } from './registry.js';
import type { WebhookRecord } from './store.js';
import type { TargetChecker } from './target.js';
import { DeliveryList, DeliveryView, deliveryView, WebhookList, WebhookView, webhookView } from './views.js';

export interface WebhookService {
  registry: Registry;
  targets: TargetChecker;
  auth: CallerAuth;
  nowMs(): number;
  /** The newest event id: a new webhook is delivered the events after it. */
  lastEventId(): number;
  filterDepthMax: number;
  bodyBytesMax: number;
  secretCharsMax: number;
  /** A dead letter was queued again. */
  replayed(): void;
}

const NODE_LOCAL =
  'Webhooks are state of this node only, not replicated: a client that registers on three nodes receives every event three times. ';
const TAGS = ['webhooks'];

const CreateBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 65_536 }),
  secret: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  active: Type.Optional(Type.Boolean()),
  filter: Type.Optional(Type.Unknown({ description: 'event filter expression (or its JSON text)' })),
});
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const DeadParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  delivery_id: Type.String({ maxLength: 64 }),
});

/**
 * The filter to store: checked (400 invalid_filter), its account / definition / asset aliases replaced by
 * the ids they name now (404 not_found when unbound; event-ids.ts). A later alias transfer does not
 * move the webhook: it keeps following the ids.
 */
async function compile(d: RouteDeps, s: WebhookService, filter: unknown): Promise<unknown> {
  const r =
    typeof filter === 'string'
      ? await resolveEventFilterText(d.ports, filter, s.filterDepthMax)
      : await resolveEventFilter(d.ports, filter, s.filterDepthMax);
  if (!r.ok) throw gatewayError('invalid_filter', r.details);
  return r.expr;
}

export function webhookRoutes(d: RouteDeps, s: WebhookService): RouteDef[] {
  const reg = s.registry;
  const own = (req: FastifyRequest, id: string): Hook => {
    const h = reg.hooks.get(id);
    if (h === undefined || !mayManage(s.auth.caller(req), h.record.owner))
      throw d.errors.create('webhook_not_found', { id: id.slice(0, 64) });
    return h;
  };
  const page = <T>(q: { limit?: string; offset?: string }, all: T[]) => {
    const { limit, offset } = parsePage(q, d.limits);
    return { items: all.slice(offset, offset + limit), total: all.length };
  };
  const common = { tags: TAGS, visibility: 'public' as const, nodeLocal: true, auth: s.auth };
  return [
    defineRoute({
      ...common,
      method: 'POST',
      url: '/v1/webhooks',
      operationId: 'createWebhook',
      summary: 'Register a webhook',
      description: `${NODE_LOCAL}The caller (signed app request, or operator) becomes its owner. Events after the registration that match \`filter\` (the event-stream filter language) are POSTed to \`url\`, at least once and in order; an alias the filter compares with \`account\`, \`definition\` or \`asset\` is stored as the id it names at registration (404 not_found when unbound): a later alias transfer does not move the webhook; the URL must not resolve to a private, loopback or link-local address unless allowed (422 webhook_target_refused). Answered once the registration is on disk.`,
      bodyBytesMax: s.bodyBytesMax,
      errorStatuses: [404, 409, 422, 503],
      schema: { body: CreateBody, response: { 201: WebhookView } },
      handler: async (req, reply) => {
        const body = req.body;
        if (body.secret !== undefined && body.secret.length > s.secretCharsMax)
          throw gatewayError('bad_request', { field: 'secret', limit: s.secretCharsMax });
        const filter = await compile(d, s, body.filter);
        const checked = await s.targets.check(body.url);
        if (!checked.ok) throw d.errors.create(checked.code, checked.details);
        const caller = s.auth.caller(req);
        const owner = caller.kind === 'operator' ? OPERATOR_OWNER : caller.account;
        if (reg.hooks.size >= reg.limits.webhooksMax)
          throw d.errors.create('webhook_limit_reached', { limit: reg.limits.webhooksMax });
        if (caller.kind === 'account' && reg.ownedBy(ownerKeyOf(owner)) >= reg.limits.perOwnerMax)
          throw d.errors.create('webhook_limit_reached', { limit: reg.limits.perOwnerMax });
        const record: WebhookRecord = {
          id: randomUUID(),
          url: body.url,
          ...(body.secret === undefined ? {} : { secret: body.secret }),
          active: body.active ?? true,
          filter,
          owner,
          createdMs: s.nowMs(),
          fromEventId: s.lastEventId(),
          lastDeliveredEventId: s.lastEventId(),
          dropped: 0,
        };
        const hook = reg.add(record);
        try {
          await reg.store.write();
        } catch (e) {
          reg.remove(record.id);
          throw d.errors.create('webhook_store_unavailable', { reason: String(e).slice(0, 200) });
        }
        return reply.code(201).send(webhookView(hook));
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      url: '/v1/webhooks',
      operationId: 'listWebhooks',
      summary: 'List webhooks',
      description: `${NODE_LOCAL}The caller's own webhooks (operators: every webhook), oldest first; secrets are never answered.`,
      schema: { querystring: PageQuerystring, response: { 200: WebhookList } },
      handler: (req) => {
        const caller = s.auth.caller(req);
        const mine = [...reg.hooks.values()]
          .filter((h) => mayManage(caller, h.record.owner))
          .sort((a, b) => a.record.createdMs - b.record.createdMs || (a.record.id < b.record.id ? -1 : 1));
        const p = page(req.query, mine);
        return { items: p.items.map(webhookView), total: p.total };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      url: '/v1/webhooks/:id',
      operationId: 'getWebhook',
      summary: 'One webhook',
      description: `${NODE_LOCAL}A webhook of the caller (operators: any), with its cursor, queue depth and last error.`,
      errorStatuses: [404],
      schema: { params: IdParams, response: { 200: WebhookView } },
      handler: (req) => webhookView(own(req, req.params.id)),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      url: '/v1/webhooks/:id',
      operationId: 'deleteWebhook',
      summary: 'Remove a webhook',
      description: `${NODE_LOCAL}Removes the webhook with its pending deliveries and dead letters; 204 once that is on disk.`,
      errorStatuses: [404, 503],
      schema: { params: IdParams, response: { 204: Type.Null({ description: 'removed' }) } },
      handler: async (req, reply) => {
        own(req, req.params.id);
        reg.remove(req.params.id);
        await reg.store.write();
        return reply.code(204).send();
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      url: '/v1/webhooks/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'Pending and recent deliveries of a webhook',
      description: `${NODE_LOCAL}Pending deliveries in delivery order, then the most recent delivered ones, newest first (webhooks.recent_per_webhook_max).`,
      errorStatuses: [404],
      schema: { params: IdParams, querystring: PageQuerystring, response: { 200: DeliveryList } },
      handler: (req) => {
        const h = own(req, req.params.id);
        const p = page(req.query, [...h.pending, ...[...h.recent].reverse()]);
        return { items: p.items.map(deliveryView), total: p.total };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      url: '/v1/webhooks/:id/dead-letters',
      operationId: 'listWebhookDeadLetters',
      summary: 'Dead letters of a webhook',
      description: `${NODE_LOCAL}Deliveries that failed webhooks.attempts_max times, oldest first (webhooks.dead_letters_per_webhook_max kept).`,
      errorStatuses: [404],
      schema: { params: IdParams, querystring: PageQuerystring, response: { 200: DeliveryList } },
      handler: (req) => {
        const p = page(req.query, own(req, req.params.id).dead);
        return { items: p.items.map(deliveryView), total: p.total };
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      url: '/v1/webhooks/:id/dead-letters/:delivery_id/replay',
      operationId: 'replayWebhookDeadLetter',
      summary: 'Queue a dead letter again',
      description: `${NODE_LOCAL}The dead letter goes back to the end of the webhook's queue with its delivery id (the idempotency key) and attempts from zero.`,
      errorStatuses: [404, 503],
      bodyFormats: ['json'],
      schema: { params: DeadParams, response: { 202: DeliveryView } },
      handler: async (req, reply) => {
        const h = own(req, req.params.id);
        const dl = reg.replay(h, req.params.delivery_id, s.nowMs());
        if (dl === undefined)
          throw d.errors.create('webhook_delivery_not_found', { delivery_id: req.params.delivery_id });
        // The answer is the delivery as queued: the worker may deliver it while the write is flushed.
        const view = deliveryView(dl);
        await reg.store.write();
        s.replayed();
        return reply.code(202).send(view);
      },
    }),
  ];
}
