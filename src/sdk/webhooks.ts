// Webhooks for SDK users (docs/webhooks.md): register, list, read, remove, and the delivery and
// dead-letter lists, each as a signed app request of the client's account (the node records it as the
// owner). Receivers check deliveries with `verifyWebhookSignature`. Browser-safe (HMAC from @noble/hashes).
// Webhooks are node-local: register on the node you will keep talking to.

import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import type { HttpRequest } from './http.js';

/** A registration as the node answers it (the secret is never answered). */
export interface Webhook {
  id: string;
  url: string;
  active: boolean;
  has_secret: boolean;
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

/**
 * Checks a delivery on the receiving side: `signature` is the `x-ledger-webhook-signature` header,
 * `timestampMs` the `x-ledger-webhook-timestamp` header, `body` the raw body text. Also reject old
 * timestamps (e.g. more than five minutes away from now) to refuse replays.
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
  if (want.length !== signature.length) return false;
  let diff = 0;
  for (let i = 0; i < want.length; i++) diff |= want.charCodeAt(i) ^ signature.charCodeAt(i);
  return diff === 0;
}
