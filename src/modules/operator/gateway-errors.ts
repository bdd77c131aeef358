// The operator passkeys' gateway error codes (passkeys/: the WebAuthn ceremonies' answers), added to the
// node's one error registry at composition time (descriptor `gatewayErrors`; gateway/errors.ts
// createErrorRegistry) and listed in docs/errors.md (its section there is rendered from the descriptor's
// `docSections`). The sessions' own codes (`operator_session_*`, `operator_challenge_*`) are the gateway's:
// its session store answers with them whatever module opened the session.

import { type ErrorDetails, type ErrorSpec, GatewayError } from '../../gateway/errors.js';

export const OPERATOR_PASSKEY_ERRORS = {
  operator_passkey_bootstrap: {
    status: 401,
    message: "The node's first passkey registers only with its bootstrap secret, while it holds none.",
  },
  operator_passkey_session_required: {
    status: 401,
    message: 'Registering another passkey needs an operator session (Authorization: Bearer).',
  },
  operator_passkey_invalid: { status: 401, message: 'The passkey response did not verify.' },
  operator_passkey_unknown: {
    status: 401,
    message: 'No passkey with this credential id is registered on this node.',
  },
  operator_passkey_replay: {
    status: 401,
    message: "The passkey's signature counter did not advance: a replayed or cloned assertion.",
  },
  operator_passkeys_full: {
    status: 409,
    message: 'This node holds its maximum number of operator passkeys.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type OperatorPasskeyErrorCode = keyof typeof OPERATOR_PASSKEY_ERRORS;

/** Builds the error of one of the passkeys' codes (as gateway/errors.ts `gatewayError` does for the core's). */
export function passkeyError(code: OperatorPasskeyErrorCode, details: ErrorDetails = {}): GatewayError {
  const spec: ErrorSpec = OPERATOR_PASSKEY_ERRORS[code];
  return new GatewayError(code, spec.status, spec.message, details);
}
