// The conference module's gateway error codes (its routes' answers), added to the node's one error
// registry at composition time (descriptor `gatewayErrors`; gateway/errors.ts createErrorRegistry) and
// listed in docs/errors.md.

import type { ErrorSpec } from '../../gateway/errors.js';

export const CONFERENCE_GATEWAY_ERRORS: Readonly<Record<string, ErrorSpec>> = {
  // Signalling (signal-routes.ts; docs/conference.md "Signalling").
  conference_signal_not_host: { status: 403, message: "Only the call's host may post offers." },
  conference_signal_forbidden: {
    status: 403,
    message: "Only the participant or the call's host may read this offer.",
  },
  conference_signal_call_ended: { status: 409, message: 'The call has ended; it takes no new offers.' },
  conference_signal_recipient_invalid: {
    status: 400,
    message: 'An offer recipient is not an account id with an Ed25519 key.',
  },
  conference_signal_recipient_not_registered: {
    status: 422,
    message: 'An offer recipient is not a registered account.',
  },
  conference_signal_envelope_invalid: {
    status: 400,
    message: 'An envelope is not a signalling envelope v1.',
  },
  conference_signal_envelope_too_large: {
    status: 413,
    message: 'An envelope is larger than conference.signal_envelope_bytes_max.',
  },
  conference_signal_offers_full: {
    status: 422,
    message: 'The call would hold more offers than conference.signal_offers_per_call_max.',
  },
  conference_signal_store_full: {
    status: 503,
    message: "The node's signal box is full (conference.signal_bytes_max); retry later.",
  },
  conference_signal_host_quota_exceeded: {
    status: 429,
    message:
      'The host would hold more offers than conference.signal_host_bytes_max or signal_host_records_max; retry later.',
  },
  conference_signal_offer_not_found: { status: 404, message: 'No current offer for this participant.' },
  // Read routes (routes.ts).
  conference_not_found: { status: 404, message: 'No conference call has this id.' },
  conference_relay_not_found: { status: 404, message: 'No conference relay has this id.' },
};
