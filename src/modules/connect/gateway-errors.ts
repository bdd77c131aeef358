// The Connect relay's gateway error codes (its routes' answers), added to the node's one error registry
// at composition time (descriptor `gatewayErrors`; gateway/errors.ts createErrorRegistry) and listed in
// docs/errors.md.

import type { ErrorSpec } from '../../gateway/errors.js';

export const CONNECT_GATEWAY_ERRORS: Readonly<Record<string, ErrorSpec>> = {
  connect_session_exists: { status: 409, message: 'A Connect session with this sid is already open.' },
  connect_sessions_full: {
    status: 503,
    message: 'This node holds connect.sessions_max Connect sessions; retry later.',
  },
  connect_session_unknown: {
    status: 404,
    message: 'No Connect session with this sid is open on this node (closed, dropped idle, or never opened).',
  },
  connect_token_invalid: {
    status: 401,
    message: 'The Connect token is missing, wrong, of the other role, already used or expired.',
  },
};
