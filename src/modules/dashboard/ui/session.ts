// Operator sign-in from the browser (docs/operator.md "Sign-in sessions"): the operator's Ed25519 key
// signs the node's challenge with the browser's WebCrypto (no library in the bundle), and the session
// token it buys is kept in sessionStorage (this tab only, gone when it closes) for the node it came
// from. The key itself is never stored nor sent: only the public key and the signature leave the page.
// WebCrypto needs a secure context (https, or http on localhost / 127.0.0.1); elsewhere an operator can
// paste a token obtained by the SDK (`operatorSignIn`) instead.

import { type Answer, type Headers, NODE_URL, postJson } from './api.js';

export interface Session {
  token: string;
  sessionId: string;
  expiresAtMs: number;
}

const KEY = `torana.dashboard.session:${NODE_URL}`;
/** PKCS#8 header of an Ed25519 private key: the 32-byte seed follows. */
const PKCS8_ED25519 = '302e020100300506032b657004220420';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const bytesHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const b64urlBytes = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
// (Passkey sign-in, below, sends its byte fields back in base64url, as WebAuthn's JSON forms do.)

/** The stored session of this node, unless it expired. */
export function currentSession(): Session | undefined {
  try {
    const s = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Session | null;
    return s !== null && s.expiresAtMs > Date.now() ? s : undefined;
  } catch {
    return undefined;
  }
}

/** `Authorization: Bearer` of the current session, or no header. */
export function sessionHeaders(): Headers {
  const s = currentSession();
  return s === undefined ? {} : { authorization: `Bearer ${s.token}` };
}

function keep(s: Session): Session {
  sessionStorage.setItem(KEY, JSON.stringify(s));
  return s;
}

/** Keeps a token obtained elsewhere (SDK, curl); the node judges it on first use. */
export function useToken(token: string, expiresAtMs: number): Session | string {
  if (!TOKEN.test(token.trim())) return 'a session token is 43 characters of base64url';
  return keep({ token: token.trim(), sessionId: '', expiresAtMs });
}

export const canSignInHere = (): boolean => globalThis.isSecureContext && crypto.subtle !== undefined;

/** Challenge, signature, session (POST /v1/operator/session/challenge, then /v1/operator/session). */
export async function signIn(privateKeyText: string): Promise<Session | string> {
  const m = /^802620([0-9a-f]{64})$/i.exec(privateKeyText.trim());
  if (m === null) return "an Ed25519 private key text is '802620' and 64 hex digits";
  if (!canSignInHere()) return 'signing needs a secure context (https, or http on localhost)';
  const key = await crypto.subtle.importKey(
    'pkcs8',
    hexBytes(PKCS8_ED25519 + m[1]),
    { name: 'Ed25519' },
    true,
    ['sign'],
  );
  const jwk = await crypto.subtle.exportKey('jwk', key);
  const publicKey = `ed0120${bytesHex(b64urlBytes(jwk.x ?? '')).toUpperCase()}`;
  const c: Answer<{ challenge_id: string; challenge: string }> = await postJson(
    '/v1/operator/session/challenge',
    { public_key: publicKey },
  );
  if (!c.ok) return `${c.error.code}: ${c.error.message}`;
  const sig = await crypto.subtle.sign('Ed25519', key, new TextEncoder().encode(c.body.challenge));
  const s = await postJson<{ token: string; session_id: string; expires_at_ms: number }>(
    '/v1/operator/session',
    { challenge_id: c.body.challenge_id, public_key: publicKey, signature: bytesHex(new Uint8Array(sig)) },
  );
  if (!s.ok) return `${s.error.code}: ${s.error.message}`;
  return keep({ token: s.body.token, sessionId: s.body.session_id, expiresAtMs: s.body.expires_at_ms });
}

const bytesB64url = (b: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(b)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export const canUsePasskeys = (): boolean =>
  globalThis.isSecureContext && typeof globalThis.PublicKeyCredential === 'function';

/**
 * Sign in with a passkey (docs/operator.md "Passkeys"): the node's request options, the browser's
 * authenticator answers (navigator.credentials.get), the node trades the assertion for a session.
 */
export async function signInWithPasskey(): Promise<Session | string> {
  if (!canUsePasskeys()) return 'passkeys need a secure context (https, or http on localhost)';
  const o = await postJson<{
    challenge: string;
    rpId?: string;
    timeout?: number;
    userVerification?: UserVerificationRequirement;
    allowCredentials?: { id: string; type: 'public-key'; transports?: AuthenticatorTransport[] }[];
  }>('/v1/operator/auth/login/options', {});
  if (!o.ok) return `${o.error.code}: ${o.error.message}`;
  const cred = (await navigator.credentials.get({
    publicKey: {
      challenge: b64urlBytes(o.body.challenge),
      ...(o.body.rpId === undefined ? {} : { rpId: o.body.rpId }),
      ...(o.body.timeout === undefined ? {} : { timeout: o.body.timeout }),
      ...(o.body.userVerification === undefined ? {} : { userVerification: o.body.userVerification }),
      allowCredentials: (o.body.allowCredentials ?? []).map((c) => ({
        type: 'public-key' as const,
        id: b64urlBytes(c.id),
        ...(c.transports === undefined ? {} : { transports: c.transports }),
      })),
    },
  })) as PublicKeyCredential | null;
  if (cred === null) return 'no passkey was chosen';
  const r = cred.response as AuthenticatorAssertionResponse;
  const s = await postJson<{ token: string; session_id: string; expires_at_ms: number }>(
    '/v1/operator/auth/login/verify',
    {
      id: cred.id,
      rawId: bytesB64url(cred.rawId),
      type: 'public-key',
      response: {
        clientDataJSON: bytesB64url(r.clientDataJSON),
        authenticatorData: bytesB64url(r.authenticatorData),
        signature: bytesB64url(r.signature),
        ...(r.userHandle === null ? {} : { userHandle: bytesB64url(r.userHandle) }),
      },
      clientExtensionResults: {},
    },
  );
  if (!s.ok) return `${s.error.code}: ${s.error.message}`;
  return keep({ token: s.body.token, sessionId: s.body.session_id, expiresAtMs: s.body.expires_at_ms });
}

/** Revokes the session on the node (DELETE /v1/operator/session) and forgets it. */
export async function signOut(): Promise<void> {
  const headers = sessionHeaders();
  sessionStorage.removeItem(KEY);
  if (headers.authorization === undefined) return;
  await fetch(`${NODE_URL}/v1/operator/session`, { method: 'DELETE', headers }).catch(() => undefined);
}
