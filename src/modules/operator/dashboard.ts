// The operator sign-in module's section of the dashboard's settings page (a DashboardExtension, built
// with the `torana:dashboard` parts; docs/dashboard.md "Operator sign-in", docs/operator.md): sign in
// with an operator key, a passkey or a pasted token, see the session, sign out. The session it opens is the
// dashboard's (session.ts: sessionStorage, this tab only), which the pages that read with an operator
// session send.
// Key sign-in: the operator's Ed25519 key signs the node's challenge with the browser's WebCrypto (no
// library in the bundle); the key itself is never stored nor sent: only the public key and the signature
// leave the page. WebCrypto needs a secure context (https, or http on localhost / 127.0.0.1); elsewhere an
// operator can paste a token obtained by the SDK (`operatorSignIn`) instead. Passkey sign-in sends its
// byte fields back in base64url, as WebAuthn's JSON forms do.

import {
  type Answer,
  currentSession,
  type DashboardExtension,
  Facts,
  forgetSession,
  keepSession,
  NODE_URL,
  PathsContext,
  postJson,
  type Session,
  sessionHeaders,
  time,
} from 'torana:dashboard';
import { html } from 'htm/preact';
import { useContext, useState } from 'preact/hooks';

/** The key sign-in's route: the section is shown when the node serves it (or the passkeys' below). */
const SIGN_IN = '/v1/operator/session';
/** The passkey sign-in's first route: the passkey button is offered when the node serves it. */
const PASSKEY_LOGIN_OPTIONS = '/v1/operator/auth/login/options';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** PKCS#8 header of an Ed25519 private key: the 32-byte seed follows. */
const PKCS8_ED25519 = '302e020100300506032b657004220420';

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const bytesHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const b64urlBytes = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/** Keeps a token obtained elsewhere (SDK, curl); the node judges it on first use. */
function useToken(token: string, expiresAtMs: number): Session | string {
  if (!TOKEN.test(token.trim())) return 'a session token is 43 characters of base64url';
  return keepSession({ token: token.trim(), sessionId: '', expiresAtMs });
}

const canSignInHere = (): boolean => globalThis.isSecureContext && crypto.subtle !== undefined;

/** Challenge, signature, session (POST /v1/operator/session/challenge, then /v1/operator/session). */
async function signIn(privateKeyText: string): Promise<Session | string> {
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
    {
      public_key: publicKey,
    },
  );
  if (!c.ok) return `${c.error.code}: ${c.error.message}`;
  const sig = await crypto.subtle.sign('Ed25519', key, new TextEncoder().encode(c.body.challenge));
  const s = await postJson<{ token: string; session_id: string; expires_at_ms: number }>(
    '/v1/operator/session',
    { challenge_id: c.body.challenge_id, public_key: publicKey, signature: bytesHex(new Uint8Array(sig)) },
  );
  if (!s.ok) return `${s.error.code}: ${s.error.message}`;
  return keepSession({
    token: s.body.token,
    sessionId: s.body.session_id,
    expiresAtMs: s.body.expires_at_ms,
  });
}

const bytesB64url = (b: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(b)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const canUsePasskeys = (): boolean =>
  globalThis.isSecureContext && typeof globalThis.PublicKeyCredential === 'function';

/**
 * Sign in with a passkey (docs/operator.md "Passkeys"): the node's request options, the browser's
 * authenticator answers (navigator.credentials.get), the node trades the assertion for a session.
 */
async function signInWithPasskey(): Promise<Session | string> {
  if (!canUsePasskeys()) return 'passkeys need a secure context (https, or http on localhost)';
  const o = await postJson<{
    challenge: string;
    rpId?: string;
    timeout?: number;
    userVerification?: UserVerificationRequirement;
    allowCredentials?: { id: string; type: 'public-key'; transports?: AuthenticatorTransport[] }[];
  }>(PASSKEY_LOGIN_OPTIONS, {});
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
  return keepSession({
    token: s.body.token,
    sessionId: s.body.session_id,
    expiresAtMs: s.body.expires_at_ms,
  });
}

/** Revokes the session on the node (DELETE /v1/operator/session) and forgets it. */
async function signOut(): Promise<void> {
  const headers = sessionHeaders();
  forgetSession();
  if (headers.authorization === undefined) return;
  await fetch(`${NODE_URL}/v1/operator/session`, { method: 'DELETE', headers }).catch(() => undefined);
}

function SignIn() {
  const passkey = useContext(PathsContext).has(PASSKEY_LOGIN_OPTIONS);
  const [session, setSession] = useState(currentSession());
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const done = (r: Awaited<ReturnType<typeof signIn>>) => {
    setBusy(false);
    if (typeof r === 'string') setMessage(`Sign-in failed: ${r}`);
    else {
      setMessage('');
      setSession(r);
    }
  };
  const withKey = (e: Event) => {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem('operator-key') as HTMLInputElement;
    setBusy(true);
    signIn(input.value).then(done, (err: Error) => done(err.message));
    input.value = '';
  };
  const withPasskey = () => {
    setBusy(true);
    signInWithPasskey().then(done, (err: Error) => done(err.message));
  };
  const withToken = (e: Event) => {
    e.preventDefault();
    const input = (e.target as HTMLFormElement).elements.namedItem('session-token') as HTMLInputElement;
    done(useToken(input.value, Date.now() + 15 * 60_000));
    input.value = '';
  };
  if (session !== undefined)
    return html`<section aria-labelledby="signin-title"><h2 id="signin-title">Operator session</h2>
      <${Facts} items=${[
        ['Signed in', html`<span data-testid="signed-in">yes</span>`],
        ['Session', session.sessionId || '(token pasted)'],
        ['Expires', time(session.expiresAtMs)],
      ]} />
      <button type="button" onClick=${() => signOut().then(() => setSession(undefined))}>Sign out</button>
    </section>`;
  return html`<section aria-labelledby="signin-title">
    <h2 id="signin-title">Operator sign-in</h2>
    <p>Opens the pages read with an operator session (a module's, such as the bridge's messages). The key signs the node's challenge in this browser; it is neither stored nor sent.
      The session token lasts 15 minutes and is kept for this tab only.</p>
    ${canSignInHere() ? null : html`<p class="muted">This page is not a secure context, so it cannot sign: paste a token instead.</p>`}
    ${passkey && canUsePasskeys() ? html`<p><button type="button" disabled=${busy} onClick=${withPasskey}>Sign in with a passkey</button></p>` : null}
    <form class="settings" onSubmit=${withKey}>
      <label for="operator-key">Operator private key (802620…)</label>
      <input id="operator-key" name="operator-key" type="password" autocomplete="off" required />
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
    <form class="settings" onSubmit=${withToken}>
      <label for="session-token">Or a session token from <code>operatorSignIn</code></label>
      <input id="session-token" name="session-token" type="password" autocomplete="off" required />
      <button type="submit">Use token</button>
    </form>
    ${message === '' ? null : html`<p class="error" role="alert">${message}</p>`}
  </section>`;
}

const extension: DashboardExtension = {
  settings: [{ paths: [SIGN_IN, PASSKEY_LOGIN_OPTIONS], Section: SignIn }],
};
export default extension;
