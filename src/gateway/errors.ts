// The one registry of gateway error codes (docs/design/architecture.md "Decisions that shape everything";
// docs/errors.md: every error body is `{ code, message, details }` with a stable, documented `code`). `docs/errors.md` lists exactly these
// codes; errors.test.ts keeps the two in step. The composition root adds the ledger's own codes with
// createErrorRegistry(extra) instead of editing this table.

import { AssertionError } from '../util/assert.js';

export interface ErrorSpec {
  readonly status: number;
  readonly message: string;
}

export const ERRORS = {
  bad_request: { status: 400, message: 'The request is malformed or fails the route schema.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_codec_body: { status: 400, message: 'The request body is not a valid codec message.' },
  invalid_pagination: { status: 400, message: 'The pagination parameters are out of range.' },
  invalid_filter: { status: 400, message: 'The filter expression is invalid.' },
  invalid_sort: { status: 400, message: 'The sort expression is invalid.' },
  invalid_api_version: { status: 400, message: 'The x-ledger-api-version header is not a version number.' },
  unsupported_api_version: { status: 400, message: 'The requested API version is not supported.' },
  invalid_last_event_id: { status: 400, message: 'Last-Event-ID is not an event id of this stream.' },
  // Keys never leave the client (docs/design/architecture.md "Rules every family keeps"): a body carrying
  // one is refused unread.
  private_key_not_accepted: { status: 400, message: 'Request bodies never carry a private key.' },
  operator_auth_missing: { status: 401, message: 'Operator authentication headers are missing.' },
  operator_auth_invalid: { status: 401, message: 'Operator authentication failed.' },
  operator_replay: { status: 401, message: 'The operator request nonce was already used.' },
  operator_access_disabled: { status: 403, message: 'Operator access is not configured on this node.' },
  // Operator sign-in sessions (docs/operator.md; operator-sessions.ts): bearer tokens and their challenges.
  operator_session_unknown: { status: 401, message: 'The operator session token is not known to this node.' },
  operator_session_expired: { status: 401, message: 'The operator session has expired; sign in again.' },
  operator_session_revoked: { status: 401, message: 'The operator session was revoked; sign in again.' },
  operator_session_not_found: { status: 404, message: 'No active operator session has this id.' },
  operator_challenge_unknown: { status: 401, message: 'The sign-in challenge is not known to this node.' },
  operator_challenge_expired: {
    status: 401,
    message: 'The sign-in challenge has expired; ask for a new one.',
  },
  operator_challenge_used: { status: 401, message: 'The sign-in challenge was already used.' },
  operator_challenges_full: { status: 503, message: 'Too many sign-in challenges are open; retry later.' },
  // Signed app requests (signed-request.ts; docs/security.md "Signed app requests"): one rule for every family.
  signature_missing: { status: 401, message: 'This route needs a signed request (x-ledger-* headers).' },
  request_stale: {
    status: 401,
    message: "The signed request timestamp is further from node time than the chain's clock drift allows.",
  },
  request_signature_invalid: {
    status: 403,
    message: 'The request signature does not verify against the account key.',
  },
  request_signer_unregistered: {
    status: 403,
    message: 'The signing account is not a registered account of this ledger (or its domain does not exist).',
  },
  nonce_reused: { status: 409, message: 'The signed request nonce was already used.' },
  request_nonces_full: {
    status: 429,
    message:
      "This account's signed requests within the clock-drift window reached its nonce quota; retry later.",
  },
  origin_not_allowed: { status: 403, message: 'WebSocket connections from this origin are not allowed.' },
  not_found: { status: 404, message: 'No such route or resource.' },
  // Ledger proofs (docs/ledger-proofs.md): the state tree keeps storage.state_tree_versions_kept heights.
  state_proof_height_pruned: {
    status: 410,
    message: 'The state tree of that height is no longer kept; ask for a proof at a newer height.',
  },
  proof_pins_full: {
    status: 409,
    message: 'This node already keeps as many proof pins as it allows; remove one first.',
  },
  state_proof_value_changed: {
    status: 409,
    message: 'The value at that height has changed since and is no longer stored; ask at a newer height.',
  },
  method_not_allowed: { status: 405, message: 'The method is not allowed on this route.' },
  not_acceptable: { status: 406, message: 'None of the acceptable media types can be produced.' },
  request_timeout: { status: 408, message: 'The request was not received in time.' },
  body_too_large: { status: 413, message: 'The request body exceeds the limit of this route.' },
  transaction_batch_too_large: {
    status: 413,
    message: 'The batch holds more transactions than one batch may (gateway.transaction_batch_items_max).',
  },
  unsupported_media_type: { status: 415, message: 'The request content type is not accepted here.' },
  query_budget_exceeded: {
    status: 422,
    message: 'The query needs more work than one query may do; narrow its filter or sort.',
  },
  host_not_allowed: { status: 421, message: 'The Host header does not name this node.' },
  upgrade_required: { status: 426, message: 'This route only serves WebSocket upgrades.' },
  rate_limited: { status: 429, message: 'Too many requests from this client; retry later.' },
  stream_limit_reached: { status: 429, message: 'Too many open streams; retry later.' },
  headers_too_large: { status: 431, message: 'The request headers exceed the size limit.' },
  internal_error: { status: 500, message: 'Internal error.' },
  telemetry_profile_restricted: {
    status: 503,
    message: 'The telemetry profile of this node does not expose this route.',
  },
  too_many_connections: { status: 503, message: 'Too many open connections; retry later.' },
} as const satisfies Record<string, ErrorSpec>;

export type GatewayErrorCode = keyof typeof ERRORS;
export type ErrorDetails = Record<string, unknown>;

/** The wire shape of every error answer, whatever its encoding. */
export interface ErrorBody {
  code: string;
  message: string;
  details: ErrorDetails;
}

/** An operating error (bad input, limit hit): a typed value, never a bug. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}

/** Builds an error for one of the gateway's own codes. */
export function gatewayError(
  code: GatewayErrorCode,
  details: ErrorDetails = {},
  message?: string,
): GatewayError {
  const spec: ErrorSpec = ERRORS[code];
  return new GatewayError(code, spec.status, message ?? spec.message, details);
}

/**
 * The Retry-After value (RFC 9110 §10.2.3, whole seconds) of a 429 or 503 whose details carry a positive
 * integer `retry_after_s`; undefined otherwise.
 */
export function retryAfterSeconds(error: GatewayError): string | undefined {
  const s = error.details.retry_after_s;
  const waits = error.status === 429 || error.status === 503;
  return waits && typeof s === 'number' && Number.isSafeInteger(s) && s > 0 ? String(s) : undefined;
}

export interface ErrorRegistry {
  readonly specs: Readonly<Record<string, ErrorSpec>>;
  has(code: string): boolean;
  /** Builds an error for any registered code; an unregistered code is a programmer error. */
  create(code: string, details?: ErrorDetails, message?: string): GatewayError;
  /** Registered codes answering with `status`, sorted. */
  codesWithStatus(status: number): string[];
}

const CODE_SHAPE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The gateway codes plus `extra` (e.g. the ledger's rejection codes). Redefining a code or giving a
 * status outside 400–599 fails at composition time, so a typo cannot ship.
 */
export function createErrorRegistry(extra: Record<string, ErrorSpec> = {}): ErrorRegistry {
  const specs: Record<string, ErrorSpec> = { ...ERRORS };
  for (const [code, spec] of Object.entries(extra)) {
    if (Object.hasOwn(specs, code)) throw new AssertionError(`error code ${code} is already registered`);
    if (!CODE_SHAPE.test(code)) throw new AssertionError(`error code ${code} is not snake_case`);
    if (!Number.isInteger(spec.status) || spec.status < 400 || spec.status > 599) {
      throw new AssertionError(`error code ${code} has a non-error status ${spec.status}`);
    }
    specs[code] = { status: spec.status, message: spec.message };
  }
  Object.freeze(specs);
  return {
    specs,
    has: (code) => Object.hasOwn(specs, code),
    create(code, details = {}, message) {
      const spec = specs[code];
      if (spec === undefined) throw new AssertionError(`unregistered error code ${code}`);
      return new GatewayError(code, spec.status, message ?? spec.message, details);
    },
    codesWithStatus: (status) =>
      Object.keys(specs)
        .filter((c) => specs[c]!.status === status)
        .sort(),
  };
}
