// The ISO 20022 bridge's gateway error codes (its routes' answers: routes/, bridge/errors.ts), added to
// the node's one error registry at composition time (descriptor `gatewayErrors`; gateway/errors.ts
// createErrorRegistry) and listed in docs/errors.md (its section there is rendered from the descriptor's
// `docSections`).

import type { ErrorSpec } from '../../gateway/errors.js';

export const ISO20022_GATEWAY_ERRORS: Readonly<Record<string, ErrorSpec>> = {
  iso_xml_malformed: { status: 400, message: 'The XML message is not well-formed.' },
  iso_xml_forbidden_construct: {
    status: 400,
    message: 'The XML message holds a DOCTYPE, entity declaration or processing instruction.',
  },
  iso_xml_too_large: { status: 400, message: 'The XML message exceeds an element, attribute or size limit.' },
  iso_xml_too_deep: { status: 400, message: 'The XML message nests elements deeper than the limit.' },
  iso_unsupported_message: { status: 400, message: 'The message definition or version is not supported.' },
  iso_message_mismatch: { status: 400, message: 'The message is not of the kind this route takes.' },
  iso_input_invalid: {
    status: 400,
    message: 'The body is neither an ISO 20022 XML message nor flat fields.',
  },
  iso_validation_failed: { status: 400, message: 'A field of the message is missing or invalid.' },
  iso_business_rule_failed: { status: 422, message: 'The message breaks a business rule of the bridge.' },
  iso_participant_not_authorised: {
    status: 403,
    message: 'The signing participant may not act for this institution or account.',
  },
  iso_duplicate_message: {
    status: 409,
    message: 'A different message with this id was already received.',
  },
  iso_message_not_found: { status: 404, message: 'No bridge message has this id.' },
  iso_report_unavailable: { status: 404, message: 'This report does not exist for this message (yet).' },
  iso_bridge_unavailable: { status: 503, message: 'The ISO 20022 bridge is unavailable.' },
};
