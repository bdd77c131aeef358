// The webhook methods of ToranaClient (docs/webhooks.md "CLI and SDK"): each a signed app request of the
// client's account (the node records it as the owner), except the public event-type catalogue. sdk.ts
// declares them on the ToranaClient interface and installs them (src/sdk/client.ts
// installClientMethods), so a client has them wherever the SDK is loaded.

import type { ToranaClient } from '../../sdk/client.js';
import type { HttpRequest } from '../../sdk/http.js';
import * as webhooks from './sdk-calls.js';

const signedSend = (c: ToranaClient) => (req: HttpRequest) => c.signedRequest(req);

export const WEBHOOK_CLIENT_METHODS = {
  /** Registers a webhook on THIS node (webhooks are node-local); the account becomes its owner. */
  createWebhook(this: ToranaClient, input: webhooks.CreateWebhookInput) {
    return webhooks.createWebhook(signedSend(this), input);
  },
  listWebhooks(this: ToranaClient, page?: webhooks.PageQuery) {
    return webhooks.listWebhooks(signedSend(this), page);
  },
  getWebhook(this: ToranaClient, id: string) {
    return webhooks.getWebhook(signedSend(this), id);
  },
  deleteWebhook(this: ToranaClient, id: string) {
    return webhooks.deleteWebhook(signedSend(this), id);
  },
  webhookDeliveries(this: ToranaClient, id: string, page?: webhooks.PageQuery) {
    return webhooks.webhookDeliveries(signedSend(this), id, page);
  },
  webhookDeadLetters(this: ToranaClient, id: string, page?: webhooks.PageQuery) {
    return webhooks.webhookDeadLetters(signedSend(this), id, page);
  },
  replayWebhookDeadLetter(this: ToranaClient, id: string, deliveryId: string) {
    return webhooks.replayWebhookDeadLetter(signedSend(this), id, deliveryId);
  },
  /** Queues a signed `webhook.test` delivery to the webhook's URL now, through the real delivery path. */
  testWebhook(this: ToranaClient, id: string) {
    return webhooks.testWebhook(signedSend(this), id);
  },
  /** A new secret (given, or made by the node and answered once); the old one signs too during the overlap. */
  rotateWebhookSecret(this: ToranaClient, id: string, input?: webhooks.RotateWebhookSecretInput) {
    return webhooks.rotateWebhookSecret(signedSend(this), id, input);
  },
  /** The event types a webhook can filter on (no signature needed), each with its filter expression. */
  webhookEventTypes(this: ToranaClient) {
    return this.http.json<webhooks.WebhookEventTypes>({ method: 'GET', path: '/v1/webhooks/event-types' });
  },
} as const;

export type WebhookClientMethods = typeof WEBHOOK_CLIENT_METHODS;
