// The webhook route table (docs/webhooks.md "Routes"). Every route is node-local
// (RouteDef.nodeLocal) and takes a signed app request or operator credentials (caller.ts):
//   POST   /v1/webhooks                                             register → 201 webhook
//   GET    /v1/webhooks                                             {items, total}: own (operators: all)
//   GET    /v1/webhooks/{id}                                        one, or 404 webhook_not_found
//   DELETE /v1/webhooks/{id}                                        204, or 404
//   GET    /v1/webhooks/{id}/deliveries                             pending (in order), then recent
//   GET    /v1/webhooks/{id}/dead-letters                           {items, total}, oldest first
//   POST   /v1/webhooks/{id}/dead-letters/{delivery_id}/replay      202 delivery, queued again
//   POST   /v1/webhooks/{id}/test                                   202 delivery: a signed webhook.test, queued now
//   POST   /v1/webhooks/{id}/secret                                 200 webhook: a new secret, the old one overlapping
//   GET    /v1/webhooks/event-types                                 the event-type catalogue (public, no signature)
// Another caller's webhook answers 404 like a missing one, so ids do not leak across owners.

import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { resolveEventFilter, resolveEventFilterText } from '../../gateway/event-ids.js';
import { withNames } from '../../gateway/id-name-words.js';
import { PageQuerystring, parsePage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { type CallerAuth, mayManage, OPERATOR_OWNER } from './caller.js';
import { EventTypeCatalogue, eventTypeCatalogue } from './event-types.js';
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
  /** webhooks.secret_overlap_ms: the default and longest overlap of a secret rotation. */
  secretOverlapMs: number;
  /** A dead letter or a test delivery was queued. */
  replayed(): void;
  /** The webhook's secret was rotated (its lane signs with the new secrets). */
  rekeyed(hook: Hook): void;
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
const RotateBody = Type.Object(
  {
    secret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description: 'the new secret; absent: the node makes one',
      }),
    ),
    overlap_ms: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'how long the old secret still signs (at most and by default webhooks.secret_overlap_ms)',
      }),
    ),
  },
  { examples: [{ secret: 'n3w-s3cret', overlap_ms: 3_600_000 }, {}] },
);
const RotateAnswer = Type.Object({
  ...WebhookView.properties,
  secret: Type.Optional(Type.String({ description: 'the secret the node made (only then; shown once)' })),
});
/** Bytes of a secret the node makes (64 hex characters). */
const MADE_SECRET_BYTES = 32;
const DeadParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  delivery_id: Type.String({ maxLength: 64 }),
});

/**
 * The filter to store: checked (400 invalid_filter), the names it gives in place of account / definition
 * / asset ids replaced by the ids they name now (404 not_found when unbound; event-ids.ts). A name
 * later bound elsewhere does not move the webhook: it keeps following the ids.
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
    reg.dropExpiredSecret(h, s.nowMs());
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
      description: `${NODE_LOCAL}The caller (signed app request, or operator) becomes its owner. Events after the registration that match \`filter\` (the event-stream filter language) are POSTed to \`url\`, at least once and in order; ${withNames('', (w) => `${w.a} the filter compares with \`account\`, \`definition\` or \`asset\` is stored as the id it names at registration (404 not_found when unbound): a later ${w.one} transfer does not move the webhook; `)}the URL must not resolve to a private, loopback or link-local address unless allowed (422 webhook_target_refused). Answered once the registration is on disk.`,
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
    defineRoute({
      ...common,
      method: 'POST',
      url: '/v1/webhooks/:id/test',
      operationId: 'testWebhook',
      summary: 'Send a test delivery',
      description: `${NODE_LOCAL}Queues a \`webhook.test\` delivery (\`{"id":0,"event":{"kind":"webhook.test","webhook_id":…,"requested_ms":…}}\`; event id 0 is never a ledger event's) at the end of the webhook's queue, whatever its filter and \`active\`: it is signed, attempted, retried and dead-lettered like any delivery, so it shows whether the receiver gets and verifies deliveries. 503 webhook_queue_full when the queue has no room.`,
      errorStatuses: [404, 503],
      bodyFormats: ['json'],
      schema: { params: IdParams, response: { 202: DeliveryView } },
      handler: async (req, reply) => {
        const h = own(req, req.params.id);
        const dl = reg.enqueueTest(h, s.nowMs());
        if (dl === undefined) throw d.errors.create('webhook_queue_full', { id: h.record.id });
        const view = deliveryView(dl);
        await reg.store.write();
        s.replayed();
        return reply.code(202).send(view);
      },
    }),
    defineRoute({
      ...common,
      method: 'POST',
      url: '/v1/webhooks/:id/secret',
      operationId: 'rotateWebhookSecret',
      summary: "Rotate a webhook's secret",
      description: `${NODE_LOCAL}Replaces the secret (\`secret\`, or one the node makes: 32 random bytes as hex, answered once in \`secret\`). For \`overlap_ms\` (default and at most webhooks.secret_overlap_ms) deliveries carry both signatures, newest first: \`x-ledger-webhook-signature: sha256=<new>,sha256=<old>\`; then the old secret is dropped. Answered once the new secret is on disk.`,
      errorStatuses: [404, 503],
      bodyBytesMax: s.bodyBytesMax,
      schema: { params: IdParams, body: RotateBody, response: { 200: RotateAnswer } },
      handler: async (req) => {
        const h = own(req, req.params.id);
        const { secret, overlap_ms } = req.body;
        if (secret !== undefined && secret.length > s.secretCharsMax)
          throw gatewayError('bad_request', { field: 'secret', limit: s.secretCharsMax });
        if (overlap_ms !== undefined && overlap_ms > s.secretOverlapMs)
          throw gatewayError('bad_request', { field: 'overlap_ms', limit: s.secretOverlapMs });
        const made = secret === undefined ? randomBytes(MADE_SECRET_BYTES).toString('hex') : undefined;
        reg.rotateSecret(h, secret ?? made!, overlap_ms ?? s.secretOverlapMs, s.nowMs());
        try {
          await reg.store.write();
        } catch (e) {
          throw d.errors.create('webhook_store_unavailable', { reason: String(e).slice(0, 200) });
        }
        s.rekeyed(h);
        return { ...webhookView(h), ...(made === undefined ? {} : { secret: made }) };
      },
    }),
    defineRoute({
      tags: TAGS,
      visibility: 'public',
      method: 'GET',
      url: '/v1/webhooks/event-types',
      operationId: 'listWebhookEventTypes',
      summary: 'The event types a webhook can filter on',
      description:
        'Every transaction status, block status and data event variant of this build (core and installed modules), read from the event codecs, each with the filter expression that keeps exactly it (a data event also with its JSON fields); the fields a filter may name; the kind of a test delivery. Needs no signature.',
      schema: { response: { 200: EventTypeCatalogue } },
      handler: () => eventTypeCatalogue(),
    }),
  ];
}
