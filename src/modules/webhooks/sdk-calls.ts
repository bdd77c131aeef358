// Webhooks for SDK users (docs/webhooks.md): register, list, read, remove, and the delivery and
// dead-letter lists, each as a signed app request of the client's account (the node records it as the
// owner). Receivers check deliveries with `verifyWebhookSignature`. Browser-safe (HMAC from @noble/hashes).
// Webhooks are node-local: register on the node you will keep talking to.

import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import type { HttpRequest } from '../../sdk/http.js';

/** A registration as the node answers it (the secret is never answered). */
export interface Webhook {
  id: string;
  url: string;
  active: boolean;
  has_secret: boolean;
  /** When the secret was last rotated. */
  secret_rotated_ms?: number;
  /** Deliveries are signed with the rotated-out secret as well until then. */
  previous_secret_until_ms?: number;
  filter: unknown;
  owner: string;
  created_ms: number;
  last_delivered_event_id: number;
  pending: number;
  dead_letters: number;
  dropped: number;
  last_error?: string;
}

export interface WebhookDelivery {
  delivery_id: string;
  event_id: number;
  state: 'pending' | 'delivered' | 'dead';
  attempts: number;
  created_ms: number;
  next_attempt_ms?: number;
  done_ms?: number;
  last_status?: number;
  last_error?: string;
}

export interface CreateWebhookInput {
  url: string;
  secret?: string;
  active?: boolean;
  /** An event filter expression (the event-stream language), e.g. `{eq: ['kind', 'data']}`. */
  filter?: unknown;
}

export interface RotateWebhookSecretInput {
  /** The new secret; absent: the node makes one and answers it once (`secret`). */
  secret?: string;
  /** How long the old secret still signs (default and at most the node's webhooks.secret_overlap_ms). */
  overlap_ms?: number;
}

/** One event type a webhook can filter on, with the filter that keeps exactly it. */
export interface WebhookEventType {
  kind: 'transaction' | 'block' | 'data';
  name: string;
  filter: unknown;
  fields?: string[];
}

export interface WebhookEventTypes {
  items: WebhookEventType[];
  total: number;
  filter_fields: string[];
  test_kind: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

export interface PageQuery {
  limit?: number;
  offset?: number;
}

/** Sends a signed app request and returns the answer (ToranaClient.signedRequest). */
export type SignedSend = (req: HttpRequest) => Promise<Response>;

const path = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;
const json = async <T>(r: Promise<Response>): Promise<T> => (await (await r).json()) as T;

export function createWebhook(send: SignedSend, input: CreateWebhookInput): Promise<Webhook> {
  return json(
    send({
      method: 'POST',
      path: '/v1/webhooks',
      body: JSON.stringify(input),
      contentType: 'application/json',
    }),
  );
}

export function listWebhooks(send: SignedSend, page: PageQuery = {}): Promise<Page<Webhook>> {
  return json(send({ method: 'GET', path: '/v1/webhooks', query: { ...page } }));
}

export function getWebhook(send: SignedSend, id: string): Promise<Webhook> {
  return json(send({ method: 'GET', path: path(id) }));
}

export async function deleteWebhook(send: SignedSend, id: string): Promise<void> {
  await send({ method: 'DELETE', path: path(id) });
}

export function webhookDeliveries(send: SignedSend, id: string, page: PageQuery = {}) {
  return json<Page<WebhookDelivery>>(
    send({ method: 'GET', path: `${path(id)}/deliveries`, query: { ...page } }),
  );
}

export function webhookDeadLetters(send: SignedSend, id: string, page: PageQuery = {}) {
  return json<Page<WebhookDelivery>>(
    send({ method: 'GET', path: `${path(id)}/dead-letters`, query: { ...page } }),
  );
}

export function replayWebhookDeadLetter(send: SignedSend, id: string, deliveryId: string) {
  return json<WebhookDelivery>(
    send({
      method: 'POST',
      path: `${path(id)}/dead-letters/${encodeURIComponent(deliveryId)}/replay`,
      body: '{}',
      contentType: 'application/json',
    }),
  );
}

/** Queues a signed `webhook.test` delivery to the webhook's URL now (202: the delivery). */
export function testWebhook(send: SignedSend, id: string): Promise<WebhookDelivery> {
  return json(
    send({ method: 'POST', path: `${path(id)}/test`, body: '{}', contentType: 'application/json' }),
  );
}

/** Replaces the webhook's secret; the old one keeps signing during the overlap. */
export function rotateWebhookSecret(
  send: SignedSend,
  id: string,
  input: RotateWebhookSecretInput = {},
): Promise<Webhook & { secret?: string }> {
  return json(
    send({
      method: 'POST',
      path: `${path(id)}/secret`,
      body: JSON.stringify(input),
      contentType: 'application/json',
    }),
  );
}

/**
 * Checks a delivery on the receiving side: `signature` is the `x-ledger-webhook-signature` header,
 * `timestampMs` the `x-ledger-webhook-timestamp` header, `body` the raw body text. During a secret
 * rotation's overlap the header carries several signatures separated by commas (newest first): the
 * delivery verifies when one of them does. Also reject old timestamps (e.g. more than five minutes away
 * from now) to refuse replays.
 */
export function verifyWebhookSignature(
  secret: string,
  timestampMs: number | string,
  body: string,
  signature: string,
): boolean {
  const enc = new TextEncoder();
  const mac = hmac(sha256, enc.encode(secret), enc.encode(`${timestampMs}.${body}`));
  const want = `sha256=${bytesToHex(mac)}`;
  let ok = false;
  for (const raw of signature.split(',')) {
    const part = raw.trim();
    if (want.length !== part.length) continue;
    let diff = 0;
    for (let i = 0; i < want.length; i++) diff |= want.charCodeAt(i) ^ part.charCodeAt(i);
    if (diff === 0) ok = true;
  }
  return ok;
}
