// Operator sign-in from the SDK (docs/operator.md "Sign-in sessions"): ask for a
// challenge, check that its text is an operator sign-in challenge for this key and this chain (never sign
// text a server made up: a signature over anything else could be replayed as something else), sign it,
// and trade it for a session token. The client method `ToranaClient.operatorSignIn` wraps this and hands
// back a client that sends `Authorization: Bearer <token>` on every request.

import { publicKeyToText } from '../crypto/keys.js';
import type { Signer } from '../crypto/signer.js';
import { parseChallengeText } from '../gateway/operator-challenge-text.js';
import { toHex } from '../util/hex.js';
import { ToranaTransportError } from './errors.js';
import type { Http } from './http.js';

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
