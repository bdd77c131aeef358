// The webhooks module's gateway error codes (its routes' answers), added to the node's one error registry
// at composition time (descriptor `gatewayErrors`; gateway/errors.ts createErrorRegistry) and listed in
// docs/errors.md (its section there is rendered from the descriptor's `docSections`).

import type { ErrorSpec } from '../../gateway/errors.js';

export const WEBHOOK_GATEWAY_ERRORS: Readonly<Record<string, ErrorSpec>> = {
  // Its routes (routes.ts, docs/webhooks.md).
  webhook_not_found: { status: 404, message: 'No webhook of the caller has this id.' },
  webhook_delivery_not_found: { status: 404, message: 'The webhook has no dead letter with this id.' },
  webhook_url_invalid: { status: 400, message: 'The webhook URL is not an absolute http(s) URL.' },
  webhook_target_refused: {
    status: 422,
    message: 'The webhook URL names or resolves to an address the node does not deliver to.',
  },
  webhook_limit_reached: {
    status: 409,
    message: 'The node or the account holds as many webhooks as webhooks.webhooks_max / per_owner_max allow.',
  },
  webhook_store_unavailable: { status: 503, message: 'The webhook store is closed or failed.' },
  webhook_queue_full: {
    status: 503,
    message: "The webhook's queue (or its owner's share) has no room for a test delivery; retry later.",
  },
};
