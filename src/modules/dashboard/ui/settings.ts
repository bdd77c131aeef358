// Settings: which node the dashboard reads (stored in localStorage; the page reloads to use it) and the
// operator sign-in that opens the pages read with an operator session (session.ts). docs/dashboard.md
// "Another node" and "Operator sign-in".

import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { NODE_URL, NODE_URL_KEY, normaliseNodeUrl, SERVING_NODE } from './api.js';
import { Facts, Page, time } from './parts.js';
import {
  canSignInHere,
  canUsePasskeys,
  currentSession,
  signIn,
  signInWithPasskey,
  signOut,
  useToken,
} from './session.js';

const value = (e: Event) => (e.target as HTMLInputElement).value;

function NodeSetting() {
  const [url, setUrl] = useState(NODE_URL === SERVING_NODE ? '' : NODE_URL);
  const [error, setError] = useState('');
  const save = (e: Event) => {
    e.preventDefault();
    if (url.trim() === '') localStorage.removeItem(NODE_URL_KEY);
    else {
      const u = normaliseNodeUrl(url);
      if (u === undefined) return setError('Enter an http or https URL without query or fragment.');
      localStorage.setItem(NODE_URL_KEY, u);
    }
    location.reload();
  };
  return html`<section aria-labelledby="node-title">
    <h2 id="node-title">Node</h2>
    <p>Reading <strong class="mono" data-testid="node-url">${NODE_URL}</strong>${NODE_URL === SERVING_NODE ? ' (the node serving this page)' : ''}.</p>
    <form class="settings" onSubmit=${save}>
      <label for="node-url">Node URL (empty: the node serving this page)</label>
      <input id="node-url" type="url" value=${url} placeholder=${SERVING_NODE} onInput=${(e: Event) => setUrl(value(e))} />
      <button type="submit">Use this node</button>
    </form>
    ${error === '' ? null : html`<p class="error" role="alert">${error}</p>`}
    <p class="muted">Another node must allow this page's origin (its <code>gateway.cors_origins</code>), and the node
      serving this page must allow that node in <code>dashboard.connect_src</code>.</p>
  </section>`;
}

function SignIn({ passkey }: { passkey: boolean }) {
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

export function Settings({ signin, passkey }: { signin: boolean; passkey: boolean }) {
  return html`<${Page} title="Settings"><${NodeSetting} />${signin || passkey ? html`<${SignIn} passkey=${passkey} />` : null}<//>`;
}
