// The operator sign-in module's SDK surface (docs/operator.md "Sign-in sessions"): `client.operatorSignIn`
// asks for a challenge, checks that its text is an operator sign-in challenge for this key and this chain
// (never sign text a server made up: a signature over anything else could be replayed as something
// else), signs it, and trades it for a session token; it hands back a client that sends
// `Authorization: Bearer <token>` on every request. The registry re-exports the types (src/sdk/index.ts
// exports the registry's); loading this file installs the method on every client (src/sdk/client.ts
// installClientMethods).

import { publicKeyToText } from '../../crypto/keys.js';
import type { Signer } from '../../crypto/signer.js';
import { parseChallengeText } from '../../gateway/operator-challenge-text.js';
import { installClientMethods, ToranaClient } from '../../sdk/client.js';
import { ToranaTransportError } from '../../sdk/errors.js';
import type { Http } from '../../sdk/http.js';
import { toHex } from '../../util/hex.js';

export interface OperatorSessionToken {
  /** Send as `Authorization: Bearer <token>`; keep it secret, it opens operator routes until it expires. */
  readonly token: string;
  readonly sessionId: string;
  readonly expiresAtMs: number;
}

interface ChallengeAnswer {
  challenge_id: string;
  challenge: string;
  expires_at_ms: number;
}

/** Challenge, signature, session token over `http` (the routes of routes.ts). */
export async function openOperatorSession(
  http: Http,
  key: Signer,
  chainId: string,
): Promise<OperatorSessionToken> {
  const publicKey = publicKeyToText(key.publicKey);
  const c = await http.json<ChallengeAnswer>({
    method: 'POST',
    path: '/v1/operator/session/challenge',
    contentType: 'application/json',
    body: JSON.stringify({ public_key: publicKey }),
  });
  const parts = parseChallengeText(String(c.challenge));
  if (
    parts === undefined ||
    parts.operatorKey !== publicKey ||
    parts.challengeId !== c.challenge_id ||
    parts.chainId !== chainId
  ) {
    throw new ToranaTransportError('the node sent a sign-in challenge that is not for this key and chain');
  }
  const signature = toHex(key.sign(new TextEncoder().encode(c.challenge)));
  const s = await http.json<{ token: string; session_id: string; expires_at_ms: number }>({
    method: 'POST',
    path: '/v1/operator/session',
    contentType: 'application/json',
    body: JSON.stringify({ challenge_id: c.challenge_id, public_key: publicKey, signature }),
  });
  return { token: s.token, sessionId: s.session_id, expiresAtMs: s.expires_at_ms };
}

/** Revokes the session whose token `http` sends (DELETE /v1/operator/session). */
export async function closeOperatorSession(http: Http): Promise<void> {
  await http.request({ method: 'DELETE', path: '/v1/operator/session' });
}

/** A signed-in operator session (`ToranaClient.operatorSignIn`). */
export interface OperatorSession extends OperatorSessionToken {
  /** A client like this one that sends the session token on every request. */
  readonly client: ToranaClient;
  /** Revokes the session on the node. */
  signOut(): Promise<void>;
}

export const OPERATOR_CLIENT_METHODS = {
  /**
   * Signs in as an operator with `key` (one of the node's `operator.public_keys`): challenge, signature,
   * session token (docs/operator.md "Sign-in sessions").
   */
  async operatorSignIn(this: ToranaClient, key: Signer): Promise<OperatorSession> {
    const chainId = await this.chainId();
    const s = await openOperatorSession(this.http, key, chainId);
    const headers = { ...this.opts.headers, authorization: `Bearer ${s.token}` };
    const client = new ToranaClient({ ...this.opts, chainId, headers });
    return { ...s, client, signOut: () => closeOperatorSession(client.http) };
  },
} as const;

declare module '../../sdk/client.js' {
  interface ToranaClient {
    /**
     * Signs in as an operator with `key` (one of the node's `operator.public_keys`): challenge, signature,
     * session token (docs/operator.md "Sign-in sessions").
     */
    operatorSignIn(key: Signer): Promise<OperatorSession>;
  }
}

installClientMethods(OPERATOR_CLIENT_METHODS);

/** The module's SDK functions by name (none besides the client method). */
export const OPERATOR_SDK = {} as const;
