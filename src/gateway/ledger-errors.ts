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
  // The MCP bridge (src/mcp/).
  mcp_protocol_version_unsupported: {
    status: 400,
    message: 'The MCP-Protocol-Version header names a protocol version this node does not speak.',
  },
};
