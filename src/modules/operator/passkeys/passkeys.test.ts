// The passkey rules without sockets, against a software authenticator (test/helpers/soft-authenticator.ts)
// and a clock the test moves: the first credential only with the bootstrap secret (never after), later
// ones only with a session; single-use, expiring challenges (a failed answer does not spend one); the
// signature counter must advance; origin and relying-party id are checked; the limits answer 409/429/503.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SoftAuthenticator } from '../../../../test/helpers/soft-authenticator.js';
import { type GatewayError, isGatewayError } from '../../../gateway/errors.js';
import { OperatorSessions } from '../../../gateway/operator-sessions.js';
import { OperatorPasskeys, type OperatorPasskeysOptions } from './passkeys.js';
import { memoryPasskeyStore } from './store.js';

const RP = 'localhost';
const ORIGIN = 'http://localhost:8080';
const SECRET = 'bootstrap-secret-of-this-node';
const TTL_MS = 60_000;

function setup(over: Partial<OperatorPasskeysOptions> = {}) {
  let now = 1_767_225_600_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const sessions = new OperatorSessions({
    operators: [],
    audience: { chainId: 'c', nodeKey: 'n' },
    challengeTtlMs: TTL_MS,
    sessionTtlMs: 900_000,
    sessionsMax: 8,
    challengesMax: 8,
    challengesPerClientMax: 8,
    auditMax: 10,
    now: clock.now,
    log: () => undefined,
  });
  const logged: string[] = [];
  const passkeys = new OperatorPasskeys({
    rpId: RP,
    rpName: 'test node',
    origins: [ORIGIN],
    bootstrapSecret: SECRET,
    challengeTtlMs: TTL_MS,
    challengesMax: 16,
    challengesPerClientMax: 4,
    credentialsMax: 3,
    store: memoryPasskeyStore(),
    sessions,
    now: clock.now,
    log: (e) => logged.push(`${e.event} ${e.credential_id}`),
    ...over,
  });
  return { passkeys, sessions, clock, logged };
}

const anon = { client: 'a', token: undefined };
function code(r: unknown): string | undefined {
  return isGatewayError(r) ? (r as GatewayError).code : undefined;
}
function ok<T>(r: T | GatewayError): T {
  assert.ok(!isGatewayError(r), JSON.stringify(r));
  return r as T;
}

async function bootstrap(s: ReturnType<typeof setup>, auth = new SoftAuthenticator(RP, ORIGIN)) {
  const o = ok(await s.passkeys.registrationOptions(anon, SECRET, 'first'));
  ok(await s.passkeys.registrationVerify(anon, auth.create(o)));
  return auth;
}
async function signIn(s: ReturnType<typeof setup>, auth: SoftAuthenticator) {
  const o = ok(await s.passkeys.loginOptions(anon));
  return ok(await s.passkeys.loginVerify(auth.get(o)));
}

describe('operator passkeys', () => {
  it('registers the first passkey only with the bootstrap secret, and never again with it', async () => {
    const s = setup();
    assert.equal(
      code(await s.passkeys.registrationOptions(anon, undefined, 'x')),
      'operator_passkey_bootstrap',
    );
    const wrong = await s.passkeys.registrationOptions(anon, 'not-the-secret', 'x');
    assert.deepEqual((wrong as GatewayError).details, { reason: 'wrong' });
    const auth = await bootstrap(s);
    assert.deepEqual(s.logged, [`registered ${auth.id}`]);
    // The secret alone adds nothing once a passkey exists.
    const again = await s.passkeys.registrationOptions(anon, SECRET, 'second');
    assert.equal(code(again), 'operator_passkey_session_required');
    // With a session (here opened by the first passkey), a second one registers.
    const session = await signIn(s, auth);
    const withSession = { client: 'a', token: session.token };
    const o = ok(await s.passkeys.registrationOptions(withSession, undefined, 'second'));
    const second = new SoftAuthenticator(RP, ORIGIN);
    ok(await s.passkeys.registrationVerify(withSession, second.create(o)));
    assert.deepEqual(
      s.passkeys.list().map((p) => p.label),
      ['first', 'second'],
    );
  });

  it('voids a bootstrap challenge once a passkey exists; refuses without a configured secret', async () => {
    const s = setup();
    const o1 = ok(await s.passkeys.registrationOptions(anon, SECRET, 'one'));
    const o2 = ok(await s.passkeys.registrationOptions(anon, SECRET, 'two'));
    ok(await s.passkeys.registrationVerify(anon, new SoftAuthenticator(RP, ORIGIN).create(o1)));
    const late = await s.passkeys.registrationVerify(anon, new SoftAuthenticator(RP, ORIGIN).create(o2));
    assert.deepEqual((late as GatewayError).details, { reason: 'already_registered' });
    assert.equal(s.passkeys.count, 1);
    const none = setup({ bootstrapSecret: '' });
    const r = await none.passkeys.registrationOptions(anon, SECRET, 'x');
    assert.deepEqual((r as GatewayError).details, { reason: 'not_configured' });
  });

  it('spends a challenge only on success; a replayed answer is refused; challenges expire', async () => {
    const s = setup();
    const auth = await bootstrap(s);
    const o = ok(await s.passkeys.loginOptions(anon));
    // A wrong origin fails and leaves the challenge open for the real answer.
    const foreign = await s.passkeys.loginVerify(auth.get(o, { origin: 'https://evil.example' }));
    assert.equal(code(foreign), 'operator_passkey_invalid');
    const answer = auth.get(o);
    const session = ok(await s.passkeys.loginVerify(answer));
    assert.equal(code(s.sessions.verify(session.token)), undefined);
    assert.equal(code(await s.passkeys.loginVerify(answer)), 'operator_challenge_used');
    const o2 = ok(await s.passkeys.loginOptions(anon));
    s.clock.advance(TTL_MS + 1);
    assert.equal(code(await s.passkeys.loginVerify(auth.get(o2))), 'operator_challenge_expired');
    // One TTL later it is forgotten (dropped when the next challenge is made).
    s.clock.advance(TTL_MS + 1);
    ok(await s.passkeys.loginOptions(anon));
    assert.equal(code(await s.passkeys.loginVerify(auth.get(o2))), 'operator_challenge_unknown');
    // A registration challenge does not answer a sign-in.
    const r = ok(await s.passkeys.registrationOptions({ client: 'a', token: session.token }, undefined, 'x'));
    assert.equal(code(await s.passkeys.loginVerify(auth.get(r))), 'operator_challenge_unknown');
  });

  it('refuses an assertion whose signature counter does not advance, and keeps the newest', async () => {
    const s = setup();
    const auth = await bootstrap(s);
    await signIn(s, auth);
    await signIn(s, auth);
    assert.equal(auth.counter, 2);
    const o = ok(await s.passkeys.loginOptions(anon));
    const stale = await s.passkeys.loginVerify(auth.get(o, { counter: 2 }));
    assert.equal(code(stale), 'operator_passkey_replay');
    assert.deepEqual((stale as GatewayError).details, { counter: 2, stored_counter: 2 });
    // The challenge was not spent by the refused answer.
    ok(await s.passkeys.loginVerify(auth.get(o)));
  });

  it('refuses an unknown credential, a wrong relying party, and a forged signature', async () => {
    const s = setup();
    const auth = await bootstrap(s);
    const o = ok(await s.passkeys.loginOptions(anon));
    const stranger = new SoftAuthenticator(RP, ORIGIN);
    assert.equal(code(await s.passkeys.loginVerify(stranger.get(o))), 'operator_passkey_unknown');
    const otherRp = new SoftAuthenticator('evil.example', ORIGIN);
    const forged = { ...otherRp.get(o), id: auth.id, rawId: auth.id };
    assert.equal(code(await s.passkeys.loginVerify(forged)), 'operator_passkey_invalid');
    const good = auth.get(o);
    const badSig = { ...good, response: { ...good.response, signature: stranger.get(o).response.signature } };
    assert.equal(code(await s.passkeys.loginVerify(badSig)), 'operator_passkey_invalid');
    ok(await s.passkeys.loginVerify(auth.get(o)));
  });

  it('caps credentials (409), pending challenges per client (429) and in all (503)', async () => {
    const s = setup({ credentialsMax: 1, challengesMax: 5 });
    const auth = await bootstrap(s);
    const session = await signIn(s, auth);
    const r = await s.passkeys.registrationOptions({ client: 'a', token: session.token }, undefined, 'x');
    assert.equal(code(r), 'operator_passkeys_full');
    for (let i = 0; i < 4; i++) ok(await s.passkeys.loginOptions({ client: 'b', token: undefined }));
    assert.equal(code(await s.passkeys.loginOptions({ client: 'b', token: undefined })), 'rate_limited');
    ok(await s.passkeys.loginOptions({ client: 'c', token: undefined }));
    const full = await s.passkeys.loginOptions({ client: 'd', token: undefined });
    assert.equal(code(full), 'operator_challenges_full');
    s.clock.advance(TTL_MS + 1);
    ok(await s.passkeys.loginOptions({ client: 'd', token: undefined }));
  });
});
