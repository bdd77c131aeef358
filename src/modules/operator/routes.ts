// The operator sign-in route table (docs/operator.md "Sign-in sessions"). Not an
// application family: these routes exist whatever `app_api.enabled` says. Challenge and sign-in are public
// (the signature is the credential); listing, auditing and revoking sessions are operator routes, which a
// session token or a signed operator request opens (gateway/operator-auth.ts). All of it is node-local.

import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { gatewayError, isGatewayError } from '../../gateway/errors.js';
import { bearerToken } from '../../gateway/operator-auth.js';
import type { OperatorSessions } from '../../gateway/operator-sessions.js';
import { clientKey } from '../../gateway/rate-limit.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';

const tags = ['operator'];
const KEY_TEXT = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'operator public key text (ed0120…)',
});

const ChallengeBody = Type.Object({ public_key: KEY_TEXT }, { additionalProperties: false });
const SignInBody = Type.Object(
  {
    challenge_id: Type.String({ minLength: 1, maxLength: 64 }),
    public_key: KEY_TEXT,
    signature: Type.String({
      minLength: 128,
      maxLength: 128,
      description: 'Ed25519 signature of the UTF-8 challenge text, 128 hex digits',
    }),
  },
  { additionalProperties: false },
);
const ChallengeView = Type.Object({
  challenge_id: Type.String(),
  challenge: Type.String({ description: 'the exact text to sign (UTF-8), lines joined by \\n' }),
  expires_at_ms: Type.Integer(),
});
const SessionIssuedView = Type.Object({
  token: Type.String({ description: 'send as `Authorization: Bearer <token>`' }),
  session_id: Type.String(),
  expires_at_ms: Type.Integer(),
});
const SessionInfoView = Type.Object({
  session_id: Type.String(),
  operator_key: Type.String(),
  created_at_ms: Type.Integer(),
  expires_at_ms: Type.Integer(),
});
const SessionsView = Type.Object({ items: Type.Array(SessionInfoView), total: Type.Integer() });
const AuditView = Type.Object({
  items: Type.Array(
    Type.Object({
      event: Type.Union([Type.Literal('issued'), Type.Literal('revoked'), Type.Literal('evicted')]),
      at_ms: Type.Integer(),
      ...SessionInfoView.properties,
    }),
  ),
  total: Type.Integer(),
});
const RevokedView = Type.Object({ session_id: Type.String(), revoked: Type.Literal(true) });

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

function sessionAdminRoutes(sessions: OperatorSessions): RouteDef[] {
  const admin = { tags, visibility: 'operator' as const, nodeLocal: true };
  return [
    defineRoute({
      ...admin,
      method: 'GET',
      url: '/v1/operator/sessions',
      operationId: 'listOperatorSessions',
      summary: 'Active operator sessions of this node, oldest first (operator)',
      schema: { response: { 200: SessionsView } },
      handler: (_req, reply) => {
        const items = sessions.list();
        return noStore(reply).send({ items, total: items.length });
      },
    }),
    defineRoute({
      ...admin,
      method: 'GET',
      url: '/v1/operator/sessions/audit',
      operationId: 'listOperatorSessionAudit',
      summary: 'The newest operator session events (issued, revoked, evicted), newest first (operator)',
      schema: { response: { 200: AuditView } },
      handler: (_req, reply) => {
        const items = sessions.audit();
        return noStore(reply).send({ items, total: items.length });
      },
    }),
    defineRoute({
      ...admin,
      method: 'DELETE',
      url: '/v1/operator/sessions/:id',
      operationId: 'revokeOperatorSession',
      summary: 'Revoke an active operator session by id (operator)',
      errorStatuses: [404],
      schema: {
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: RevokedView },
      },
      handler: (req, reply) => {
        const s = sessions.revoke(req.params.id);
        if (s === undefined)
          throw gatewayError('operator_session_not_found', { session_id: req.params.id.slice(0, 64) });
        return reply.send({ session_id: s.session_id, revoked: true });
      },
    }),
    defineRoute({
      ...admin,
      method: 'DELETE',
      url: '/v1/operator/session',
      operationId: 'signOutOperatorSession',
      summary: "Revoke the caller's own session (the Bearer token of this request)",
      errorStatuses: [404],
      schema: { response: { 200: RevokedView } },
      handler: (req, reply) => {
        const token = bearerToken(req);
        const s = token === undefined || isGatewayError(token) ? undefined : sessions.revokeToken(token);
        if (s === undefined)
          throw gatewayError('operator_session_not_found', { reason: 'not_a_session_request' });
        return reply.send({ session_id: s.session_id, revoked: true });
      },
    }),
  ];
}

export function operatorSessionRoutes(sessions: OperatorSessions): RouteDef[] {
  const open = { tags, visibility: 'public' as const, nodeLocal: true, errorStatuses: [401, 403, 429, 503] };
  return [
    defineRoute({
      ...open,
      method: 'POST',
      url: '/v1/operator/session/challenge',
      operationId: 'createOperatorChallenge',
      summary:
        'A single-use sign-in challenge for an operator key (sign its text, then POST /v1/operator/session)',
      description:
        'Answers 403 operator_access_disabled when the node has no operator keys (operator.public_keys).',
      schema: { body: ChallengeBody, response: { 200: ChallengeView } },
      handler: (req, reply) => {
        const c = sessions.challenge(req.body.public_key, clientKey(req.ip));
        if (isGatewayError(c)) throw c;
        return noStore(reply).send(c);
      },
    }),
    defineRoute({
      ...open,
      method: 'POST',
      url: '/v1/operator/session',
      operationId: 'openOperatorSession',
      summary: 'Sign in: trade a signed challenge for a short-lived operator session token',
      description:
        'The token authenticates operator routes as `Authorization: Bearer <token>` until it expires or is revoked. Sessions are kept in memory: a restart ends them.',
      schema: { body: SignInBody, response: { 200: SessionIssuedView } },
      handler: (req, reply) => {
        const s = sessions.open(req.body.challenge_id, req.body.public_key, req.body.signature);
        if (isGatewayError(s)) throw s;
        return noStore(reply).send(s);
      },
    }),
    ...sessionAdminRoutes(sessions),
  ];
}
