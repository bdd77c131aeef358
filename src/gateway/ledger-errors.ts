// Error codes the node adds to the gateway's registry at composition time (docs/errors.md "Ledger and
// pipeline"): admission rejections (the ledger's stable codes), queue answers, query errors, node health.

import { REJECTION_CODES } from '../model/rejections.js';
import type { ErrorSpec } from './errors.js';

/** Admission-stage rejection codes (1xx) answer 400; later stages only appear in transaction statuses. */
function admissionCodes(): Record<string, ErrorSpec> {
  const out: Record<string, ErrorSpec> = {};
  for (const [code, [n, meaning]] of Object.entries(REJECTION_CODES)) {
    if (n >= 100 && n < 200) out[code] = { status: 400, message: `Transaction rejected: ${meaning}.` };
  }
  return out;
}

export const LEDGER_ERRORS: Record<string, ErrorSpec> = {
  ...admissionCodes(),
  // The one 2xx check admission also runs: refused before queueing, never written
  // to a block. The executor's own check remains for accounts unregistered meanwhile.
  authority_not_found: {
    status: 400,
    message: 'Transaction rejected: the authority account is not registered.',
  },
  already_enqueued: { status: 409, message: 'This transaction is already in the queue.' },
  already_committed: { status: 409, message: 'This transaction is already committed.' },
  queue_full: { status: 429, message: 'The transaction queue is full; retry later.' },
  account_queue_full: { status: 429, message: 'This account has too many queued transactions; retry later.' },
  key_queue_full: {
    status: 429,
    message: 'This signing key has too many queued transactions across its accounts; retry later.',
  },
  source_queue_full: {
    status: 429,
    message: 'This client address has too many queued transactions; retry later.',
  },
  query_signature_invalid: {
    status: 403,
    message: 'The query signature does not verify against its authority.',
  },
  query_authority_not_found: { status: 403, message: 'The query authority account is not registered.' },
  query_creation_time_in_future: {
    status: 400,
    message: 'The query creation time is further in the future than the allowed clock drift.',
  },
  query_expired: { status: 400, message: 'The query creation time is older than query.max_age_ms.' },
  query_replayed: {
    status: 409,
    message: 'This signed query was already answered; sign it again with the current time.',
  },
  permission_denied: { status: 403, message: 'The authority may not run this query.' },
  cursor_not_found: { status: 400, message: 'No such query cursor (it may belong to another authority).' },
  cursor_expired: { status: 410, message: 'The query cursor expired; start the query again.' },
  cursors_exhausted: { status: 429, message: 'Too many open query cursors; retry later.' },
  node_unhealthy: { status: 503, message: 'The node is stopping or has stopped after a fatal error.' },
  // Consensus evidence and runtime upgrades (routes/consensus-evidence.ts, routes/runtime.ts).
  evidence_malformed: {
    status: 400,
    message: 'The evidence is not hex or not a codec ConsensusEvidence record.',
  },
  evidence_invalid: { status: 400, message: 'The evidence does not prove misbehaviour.' },
  upgrade_invalid_manifest: { status: 400, message: 'The upgrade manifest is malformed or inconsistent.' },
  upgrade_not_found: { status: 404, message: 'No runtime upgrade has this id.' },
  upgrade_invalid_state: { status: 409, message: 'The runtime upgrade is not in a state that allows this.' },
  upgrade_already_exists: { status: 409, message: 'A runtime upgrade with this manifest already exists.' },
  // ISO 20022 bridge (src/iso20022/routes/; src/iso20022/bridge/errors.ts).
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
  // The MCP bridge (src/mcp/).
  mcp_protocol_version_unsupported: {
    status: 400,
    message: 'The MCP-Protocol-Version header names a protocol version this node does not speak.',
  },
};
