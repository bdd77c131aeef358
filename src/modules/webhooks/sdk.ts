// The webhooks module's SDK surface (docs/webhooks.md "CLI and SDK"): the webhook methods of
// ToranaClient (installed here, sdk-client.ts), `verifyWebhookSignature` for receivers, and their types.
// src/sdk/index.ts re-exports these names; loading this file installs the client methods. Browser-safe
// (HMAC from @noble/hashes).

import { installClientMethods } from '../../sdk/client.js';
import { verifyWebhookSignature } from './sdk-calls.js';
import { WEBHOOK_CLIENT_METHODS, type WebhookClientMethods } from './sdk-client.js';

export {
  type CreateWebhookInput,
  type RotateWebhookSecretInput,
  verifyWebhookSignature,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookEventTypes,
} from './sdk-calls.js';

declare module '../../sdk/client.js' {
  interface ToranaClient extends WebhookClientMethods {}
}

installClientMethods(WEBHOOK_CLIENT_METHODS);

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const WEBHOOK_SDK = { verifyWebhookSignature } as const;
