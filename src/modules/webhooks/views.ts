// Answer shapes of the webhook routes (docs/webhooks.md "Routes"), as JSON schemas for the OpenAPI
// document, and the functions that render stored records into them. The secret is never answered.

import { type Static, Type } from 'typebox';
import type { Hook } from './registry.js';
import type { Delivery } from './store.js';

export const WebhookView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  active: Type.Boolean(),
  has_secret: Type.Boolean(),
  secret_rotated_ms: Type.Optional(Type.Number({ description: 'when the secret was last rotated' })),
  previous_secret_until_ms: Type.Optional(
    Type.Number({ description: 'deliveries are signed with the rotated-out secret too until then' }),
  ),
  filter: Type.Unknown({ description: 'the event filter expression (null: every event)' }),
  owner: Type.String({ description: 'the registering account, or "operator"' }),
  created_ms: Type.Number(),
  last_delivered_event_id: Type.Number({ description: 'the per-webhook cursor: newest event delivered' }),
  pending: Type.Number(),
  dead_letters: Type.Number(),
  dropped: Type.Number({ description: 'events not queued because a queue was full' }),
  last_error: Type.Optional(Type.String()),
});

export const DeliveryView = Type.Object({
  delivery_id: Type.String(),
  event_id: Type.Number(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dead')]),
  attempts: Type.Number(),
  created_ms: Type.Number(),
  next_attempt_ms: Type.Optional(Type.Number()),
  done_ms: Type.Optional(Type.Number()),
  last_status: Type.Optional(Type.Number()),
  last_error: Type.Optional(Type.String()),
});

export const WebhookList = Type.Object({ items: Type.Array(WebhookView), total: Type.Number() });
export const DeliveryList = Type.Object({ items: Type.Array(DeliveryView), total: Type.Number() });

export function webhookView(h: Hook): Static<typeof WebhookView> {
  const r = h.record;
  return {
    id: r.id,
    url: r.url,
    active: r.active,
    has_secret: r.secret !== undefined,
    ...(r.secretRotatedMs === undefined ? {} : { secret_rotated_ms: r.secretRotatedMs }),
    ...(r.previousSecretUntilMs === undefined ? {} : { previous_secret_until_ms: r.previousSecretUntilMs }),
    filter: r.filter ?? null,
    owner: r.owner,
    created_ms: r.createdMs,
    last_delivered_event_id: r.lastDeliveredEventId,
    pending: h.pending.length,
    dead_letters: h.dead.length,
    dropped: r.dropped,
    ...(r.lastError === undefined ? {} : { last_error: r.lastError }),
  };
}

export function deliveryView(d: Delivery): Static<typeof DeliveryView> {
  return {
    delivery_id: d.id,
    event_id: d.eventId,
    state: d.state,
    attempts: d.attempts,
    created_ms: d.createdMs,
    ...(d.state === 'pending' ? { next_attempt_ms: d.nextAtMs } : {}),
    ...(d.doneMs === undefined ? {} : { done_ms: d.doneMs }),
    ...(d.lastStatus === undefined ? {} : { last_status: d.lastStatus }),
    ...(d.lastError === undefined ? {} : { last_error: d.lastError }),
  };
}
