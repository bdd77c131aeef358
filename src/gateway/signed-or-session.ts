// Read routes that a participant's signed app request (signed-request.ts) OR an operator sign-in session
// (`Authorization: Bearer <token>`, operator-auth.ts's session verifier) may open: the operator runs the
// node and already holds its data, so letting a signed-in operator read what participants read gives
// nothing away, and it lets a browser page read without holding a participant's key.
// A request with an `Authorization: Bearer` header is judged by the session only (an unknown, expired or
// revoked token is 401 operator_session_*; a malformed one 401 operator_auth_invalid), never falls back to
// the signed headers; any other request goes through the signed-request checks unchanged.

import type { FastifyRequest } from 'fastify';
import { isGatewayError } from './errors.js';
import { bearerToken, type OperatorSessionRef, type OperatorSessionVerifier } from './operator-auth.js';
import type { SignedRequests } from './signed-request.js';

export interface SignedOrSession extends SignedRequests {
  /** The operator session that opened `req`, when it came with a valid bearer token. */
  session(req: FastifyRequest): OperatorSessionRef | undefined;
}

/** `signed` alone when `sessions` is undefined (a node without operator sign-in). */
export function signedOrSession(
  signed: SignedRequests,
  sessions: OperatorSessionVerifier | undefined,
): SignedOrSession {
  const bySession = new WeakMap<FastifyRequest, OperatorSessionRef>();
  return {
    async onRequest(req) {
      const token = sessions === undefined ? undefined : bearerToken(req);
      if (token === undefined) return signed.onRequest(req);
      if (isGatewayError(token)) throw token;
      const ref = sessions!.verify(token);
      if (isGatewayError(ref)) throw ref;
      bySession.set(req, ref);
    },
    preParsing(req, reply, payload) {
      if (bySession.has(req)) return Promise.resolve(payload);
      return signed.preParsing(req, reply, payload);
    },
    async preValidation(req) {
      if (bySession.has(req)) return;
      return signed.preValidation(req);
    },
    account: (req) => signed.account(req),
    session: (req) => bySession.get(req),
  };
}
