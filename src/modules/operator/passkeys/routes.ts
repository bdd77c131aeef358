// The operator passkey routes (docs/operator.md "Passkeys"): WebAuthn registration and sign-in, next to
// the Ed25519 sign-in (../routes.ts). Present only with `operator.passkeys_enabled` (else 404 and absent
// from OpenAPI). The bodies are the JSON forms WebAuthn clients produce (PublicKeyCredential.toJSON(),
// @simplewebauthn/browser); the options answered are what navigator.credentials.create()/get() take.
// Everything is per node: the credentials in its data folder, the challenges in its memory.

import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { isGatewayError } from '../../../gateway/errors.js';
import { bearerToken } from '../../../gateway/operator-auth.js';
import { clientKey } from '../../../gateway/rate-limit.js';
import { defineRoute, type RouteDef } from '../../../gateway/route-table.js';
import type { OperatorPasskeys } from './passkeys.js';

const tags = ['operator'];
const PER_NODE =
  'Per node: passkeys are stored in this node only (its data folder) and are not replicated; a passkey signs in to the node it was registered on. ';
const B64 = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+=*$' });

/** The WebAuthn response JSON (a PublicKeyCredential's toJSON()); the library checks its inner shape. */
function credentialBody(response: Record<string, ReturnType<typeof B64>>, example: unknown) {
  return Type.Object(
    {
      id: B64(1024),
      rawId: B64(1024),
      type: Type.Literal('public-key'),
      response: Type.Object(response),
      authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
      clientExtensionResults: Type.Optional(Type.Object({})),
    },
    { examples: [example] },
  );
}

const RegistrationResponse = credentialBody(
  { clientDataJSON: B64(4096), attestationObject: B64(16_384) },
  {
    id: 'Wq3bAk6XkA0x3o1Bv2sYFQ',
    rawId: 'Wq3bAk6XkA0x3o1Bv2sYFQ',
    type: 'public-key',
    response: {
      clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwi…',
      attestationObject: 'o2NmbXRkbm9uZWdh…',
    },
    clientExtensionResults: {},
  },
);
const AuthenticationResponse = credentialBody(
  { clientDataJSON: B64(4096), authenticatorData: B64(4096), signature: B64(1024), userHandle: B64(512) },
  {
    id: 'Wq3bAk6XkA0x3o1Bv2sYFQ',
    rawId: 'Wq3bAk6XkA0x3o1Bv2sYFQ',
    type: 'public-key',
    response: {
      clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0Iiwi…',
      authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
      signature: 'MEUCIQD…',
    },
    clientExtensionResults: {},
  },
);
// userHandle is optional in an assertion.
AuthenticationResponse.properties.response = Type.Object({
  clientDataJSON: B64(4096),
  authenticatorData: B64(4096),
  signature: B64(1024),
  userHandle: Type.Optional(B64(512)),
});

const RegistrationOptionsBody = Type.Object(
  {
    bootstrap_secret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: "the node's operator.passkey_bootstrap_secret: only for its first passkey",
      }),
    ),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[\\x20-\\x7e]+$' })),
  },
  {
    additionalProperties: false,
    examples: [
      { bootstrap_secret: 'first-passkey-secret-from-config', label: 'ops laptop' },
      { label: 'backup key' },
    ],
  },
);
const Options = Type.Object(
  { challenge: Type.String() },
  { additionalProperties: true, description: 'WebAuthn options (JSON form) for navigator.credentials' },
);
const PasskeyView = Type.Object(
  {
    credential_id: Type.String(),
    label: Type.String(),
    created_at_ms: Type.Integer(),
    last_used_at_ms: Type.Union([Type.Integer(), Type.Null()]),
  },
  {
    examples: [
      {
        credential_id: 'Wq3bAk6XkA0x3o1Bv2sYFQ',
        label: 'ops laptop',
        created_at_ms: 1767225600000,
        last_used_at_ms: null,
      },
    ],
  },
);
const SessionView = Type.Object(
  {
    token: Type.String({ description: 'send as `Authorization: Bearer <token>`' }),
    session_id: Type.String(),
    expires_at_ms: Type.Integer(),
  },
  {
    examples: [
      {
        token: 'kq0c2wX0l7QbqS1bq7mB5u6m3Jx0S9m9z3yQx2r5v4A',
        session_id: 'b1Yc3jv0Qm2u7c8k3tX9Xg',
        expires_at_ms: 1767226500000,
      },
    ],
  },
);
const PasskeysView = Type.Object({ items: Type.Array(PasskeyView), total: Type.Integer() });

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

export function passkeyRoutes(passkeys: OperatorPasskeys): RouteDef[] {
  const open = { tags, visibility: 'public' as const, nodeLocal: true, errorStatuses: [401, 409, 429, 503] };
  const caller = (req: Parameters<typeof bearerToken>[0]) => ({
    client: clientKey(req.ip),
    token: bearerToken(req),
  });
  return [
    defineRoute({
      ...open,
      method: 'POST',
      url: '/v1/operator/auth/registration/options',
      operationId: 'operatorPasskeyRegistrationOptions',
      summary:
        'WebAuthn creation options for a new operator passkey (bootstrap secret for the first, else a session)',
      description: `${PER_NODE}The node's first passkey needs its bootstrap secret (operator.passkey_bootstrap_secret) and nothing else; once it holds one, a new passkey needs an operator session (Authorization: Bearer) and the secret registers nothing. The challenge is single-use and lasts operator.passkey_challenge_ttl_ms (60 s).`,
      schema: { body: RegistrationOptionsBody, response: { 200: Options } },
      handler: async (req, reply) => {
        const o = await passkeys.registrationOptions(
          caller(req),
          req.body.bootstrap_secret,
          req.body.label ?? 'operator',
        );
        if (isGatewayError(o)) throw o;
        return noStore(reply).send(o);
      },
    }),
    defineRoute({
      ...open,
      method: 'POST',
      url: '/v1/operator/auth/registration/verify',
      operationId: 'operatorPasskeyRegistrationVerify',
      summary: 'Register an operator passkey: the attestation answering a registration challenge',
      description: `${PER_NODE}The same grant as the options (a bootstrap challenge is void once a passkey exists; otherwise send the session again). Stored durably (fsynced) before the answer.`,
      schema: { body: RegistrationResponse, response: { 200: PasskeyView } },
      handler: async (req, reply) => {
        const r = await passkeys.registrationVerify(caller(req), req.body);
        if (isGatewayError(r)) throw r;
        return noStore(reply).send(r);
      },
    }),
    defineRoute({
      ...open,
      method: 'POST',
      url: '/v1/operator/auth/login/options',
      operationId: 'operatorPasskeyLoginOptions',
      summary: "WebAuthn request options to sign in with one of this node's operator passkeys",
      description: `${PER_NODE}The challenge is single-use and lasts operator.passkey_challenge_ttl_ms (60 s).`,
      schema: { response: { 200: Options } },
      handler: async (req, reply) => {
        const o = await passkeys.loginOptions(caller(req));
        if (isGatewayError(o)) throw o;
        return noStore(reply).send(o);
      },
    }),
    defineRoute({
      ...open,
      method: 'POST',
      url: '/v1/operator/auth/login/verify',
      operationId: 'operatorPasskeyLoginVerify',
      summary: 'Sign in with a passkey: trade an assertion for a short-lived operator session token',
      description: `${PER_NODE}The signature counter must advance (a replayed assertion is refused) and the new counter is durable before the session is issued. The token authenticates operator routes as Authorization: Bearer <token>, like the Ed25519 sign-in's; sessions live in memory, a restart ends them.`,
      schema: { body: AuthenticationResponse, response: { 200: SessionView } },
      handler: async (req, reply) => {
        const s = await passkeys.loginVerify(req.body);
        if (isGatewayError(s)) throw s;
        return noStore(reply).send({
          token: s.token,
          session_id: s.session_id,
          expires_at_ms: s.expires_at_ms,
        });
      },
    }),
    defineRoute({
      tags,
      visibility: 'operator',
      nodeLocal: true,
      method: 'GET',
      url: '/v1/operator/auth/passkeys',
      operationId: 'listOperatorPasskeys',
      summary: "This node's operator passkeys, in registration order (operator)",
      description: PER_NODE.trim(),
      schema: { response: { 200: PasskeysView } },
      handler: (_req, reply) => {
        const items = passkeys.list();
        return noStore(reply).send({ items, total: items.length });
      },
    }),
  ];
}
