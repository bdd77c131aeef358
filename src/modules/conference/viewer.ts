// Who reads a call (docs/conference.md "Routes and CLI"): an `authenticated` call is served only to a
// signed request (the `x-ledger-*` headers of gateway/signed-request.ts) of a registered account,
// a `public` one to anyone. The call routes take the signature when it is sent and do not ask for it
// otherwise, so one route serves both: a request without any `x-ledger-*` header is anonymous; a request
// with some of them is checked in full (401 signature_missing, request_stale; 403
// request_signature_invalid; 409 nonce_reused) before the handler runs.

import type { FastifyRequest } from 'fastify';
import { gatewayError } from '../../gateway/errors.js';
import { SIGNED_REQUEST_HEADERS, type SignedRequests } from '../../gateway/signed-request.js';
import type { ConferenceCall } from './model.js';
import type { ConferenceReadPort } from './read-port.js';

const signs = (req: FastifyRequest) => SIGNED_REQUEST_HEADERS.some((h) => req.headers[h] !== undefined);

/** `inner`, applied only to requests that carry a signed-request header. */
export function optionalSignature(inner: SignedRequests): SignedRequests {
  return {
    onRequest: async (req) => {
      if (signs(req)) await inner.onRequest(req);
    },
    // Without a pending signature (an anonymous request) the inner hook passes the body through.
    preParsing: (req, reply, payload) => inner.preParsing(req, reply, payload),
    preValidation: async (req) => {
      if (signs(req)) await inner.preValidation(req);
    },
    account: (req) => inner.account(req),
  };
}

/** The registered account that signed `req`, if any. */
export function viewerOf(
  auth: SignedRequests,
  reader: ConferenceReadPort,
  req: FastifyRequest,
): string | undefined {
  const account = auth.account(req);
  return account !== undefined && reader.accountExists(account) ? account : undefined;
}

/** Throws unless `viewer` may read `call`: 401 without a signature, 403 for an unregistered signer. */
export function checkViewer(
  call: ConferenceCall,
  auth: SignedRequests,
  reader: ConferenceReadPort,
  req: FastifyRequest,
): void {
  if (call.policy.kind === 'Public') return;
  const signer = auth.account(req);
  if (signer === undefined)
    throw gatewayError('signature_missing', { missing: SIGNED_REQUEST_HEADERS, policy: 'authenticated' });
  if (!reader.accountExists(signer))
    throw gatewayError('request_signature_invalid', { reason: 'account_not_registered', account: signer });
}
