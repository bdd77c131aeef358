// `npm run test:browser`: operator passkeys in Debian's Chromium with a virtual authenticator (the Chrome
// DevTools Protocol's WebAuthn domain), against a real node with passkeys on and no operator keys. The
// first passkey registers with the node's bootstrap secret (not without it), the dashboard's "Sign in with
// a passkey" opens a session, its token calls an operator route, a replayed sign-in is refused (its
// challenge is spent), and an authenticator cloned with an older signature counter is refused too.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../helpers/browser-sdk.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';

const SECRET = 'browser-test-bootstrap-secret';

/** A free loopback port: the relying party's origin must be known before the node starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

// Runs in the page (as text: this file is type-checked without DOM). WebAuthn options from the node, the
// browser's authenticator, the answer back to the node in WebAuthn's JSON form.
const PAGE_HELPERS = `
  const b = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const post = async (path, body) => {
    const r = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  };
`;
const REGISTER = (secret: string | undefined) => `(async () => {
  ${PAGE_HELPERS}
  const o = await post('/v1/operator/auth/registration/options', ${secret === undefined ? '{}' : `{ bootstrap_secret: ${JSON.stringify(secret)}, label: 'chromium' }`});
  if (o.status !== 200) return o;
  const p = o.body;
  const cred = await navigator.credentials.create({ publicKey: {
    ...p, challenge: b(p.challenge), user: { ...p.user, id: b(p.user.id) },
    excludeCredentials: (p.excludeCredentials || []).map((c) => ({ ...c, id: b(c.id) })) } });
  return post('/v1/operator/auth/registration/verify', { id: cred.id, rawId: u(cred.rawId), type: 'public-key',
    response: { clientDataJSON: u(cred.response.clientDataJSON), attestationObject: u(cred.response.attestationObject) },
    clientExtensionResults: {} });
})()`;
const LOGIN = `(async () => {
  ${PAGE_HELPERS}
  const p = (await post('/v1/operator/auth/login/options', {})).body;
  const cred = await navigator.credentials.get({ publicKey: {
    ...p, challenge: b(p.challenge), allowCredentials: p.allowCredentials.map((c) => ({ ...c, id: b(c.id) })) } });
  const body = { id: cred.id, rawId: u(cred.rawId), type: 'public-key', response: {
    clientDataJSON: u(cred.response.clientDataJSON), authenticatorData: u(cred.response.authenticatorData),
    signature: u(cred.response.signature) }, clientExtensionResults: {} };
  return { body, answer: await post('/v1/operator/auth/login/verify', body) };
})()`;

interface Answer {
  status: number;
  body: { code?: string; token?: string; credential_id?: string };
}

describe('operator passkeys in Chromium (virtual authenticator)', () => {
  let t: ServedTestNode;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let origin: string;

  before(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    t = await startServedNode({
      'gateway.port': port,
      'telemetry.profile': 'developer',
      'operator.passkeys_enabled': true,
      'operator.passkey_rp_id': 'localhost',
      'operator.passkey_origins': [origin],
      'operator.passkey_bootstrap_secret': SECRET,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage();
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
    await page.goto(`${origin}/dashboard/#/settings`);
  });
  after(async () => {
    await browser?.close();
    await t?.stopAll();
  });

  it('registers the first passkey only with the bootstrap secret', async () => {
    const without = (await page.evaluate(REGISTER(undefined))) as Answer;
    assert.equal(without.status, 401);
    assert.equal(without.body.code, 'operator_passkey_bootstrap');
    const wrong = (await page.evaluate(REGISTER('not-the-secret'))) as Answer;
    assert.equal(wrong.body.code, 'operator_passkey_bootstrap');
    const ok = (await page.evaluate(REGISTER(SECRET))) as Answer;
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    // CDP gives the id in standard base64, the node in base64url.
    const id = credentials[0]!.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    assert.equal(ok.body.credential_id, id);
  });

  it('signs in from the dashboard with the passkey; the token opens an operator route', async () => {
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByTestId('signed-in').waitFor({ timeout: 30_000 });
    const token = (await page.evaluate(
      `Object.keys(sessionStorage).filter((k) => k.startsWith('torana.dashboard.session:')).map((k) => JSON.parse(sessionStorage.getItem(k)).token)[0]`,
    )) as string;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const res = await fetch(`${t.url}/v1/operator/sessions`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    const list = (await res.json()) as { items: { operator_key: string }[] };
    assert.ok(list.items.some((i) => i.operator_key.startsWith('passkey:')));
    assert.equal((await fetch(`${t.url}/v1/operator/sessions`)).status, 401);
  });

  it('refuses a replayed sign-in, and an authenticator cloned with an older counter', async () => {
    const first = (await page.evaluate(LOGIN)) as { body: unknown; answer: Answer };
    assert.equal(first.answer.status, 200, JSON.stringify(first.answer.body));
    const replay = await fetch(`${t.url}/v1/operator/auth/login/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(first.body),
    });
    assert.equal(replay.status, 401);
    assert.equal(((await replay.json()) as { code: string }).code, 'operator_challenge_used');
    // The same key with its signature counter set back (a clone): the node has seen a higher one.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const cred = credentials[0]!;
    assert.ok(cred.signCount >= 2, `sign count ${cred.signCount}`);
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: cred.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...cred, signCount: 0 } });
    const cloned = (await page.evaluate(LOGIN)) as { answer: Answer };
    assert.equal(cloned.answer.status, 401);
    assert.equal(cloned.answer.body.code, 'operator_passkey_replay');
    console.log(`passkeys: counter ${cred.signCount} stored; clone at 1 refused (operator_passkey_replay)`);
  });
});
