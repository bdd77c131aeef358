// Operator sign-in through a real socket: challenge, signed answer, session token,
// an existing operator route called with the token, expiry, revocation (by id and by the caller), replay
// of a used challenge, a key that is not an operator's, bad signatures, and the audit list.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorAudience, type ServedTestNode, startServedNode } from '../../../test/helpers/served.js';
import { ed25519Sign } from '../../crypto/ed25519.js';
import { Ed25519KeyPair } from '../../crypto/signer.js';
import { parseChallengeText } from '../../gateway/operator-challenge-text.js';
import { signOperatorRequest } from '../../gateway/operator-message.js';
import { abiDescriptor, abiHashHex } from '../../runtime/abi.js';
import { toHex } from '../../util/hex.js';

const SEED = new Uint8Array(32).fill(0x31);
const KEY = Ed25519KeyPair.fromSeed(SEED).publicKeyText();
const OTHER_SEED = new Uint8Array(32).fill(0x32);
const OTHER_KEY = Ed25519KeyPair.fromSeed(OTHER_SEED).publicKeyText();
const TTL_MS = 2000;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('operator sign-in sessions', () => {
  let t: ServedTestNode;

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as J, headers: res.headers };
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const challenge = async (key = KEY) => {
    const r = await call('POST', '/v1/operator/session/challenge', { public_key: key });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { challenge_id: string; challenge: string; expires_at_ms: number };
  };
  const sign = (seed: Uint8Array, text: string) => toHex(ed25519Sign(seed, new TextEncoder().encode(text)));
  const answer = (c: { challenge_id: string }, signature: string, key = KEY) =>
    call('POST', '/v1/operator/session', { challenge_id: c.challenge_id, public_key: key, signature });
  const signIn = async () => {
    const c = await challenge();
    const r = await answer(c, sign(SEED, c.challenge));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as { token: string; session_id: string; expires_at_ms: number };
  };
  const refused = (r: { status: number; body: J }, status: number, code: string) => {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.code, code, JSON.stringify(r.body));
  };
  let proposals = 0;
  /** An existing operator route: the instruction proposing a runtime upgrade (a new name each time). */
  const propose = (headers: Record<string, string>) =>
    call(
      'POST',
      '/v1/runtime/upgrades/propose',
      {
        name: `session-upgrade-${proposals++}`,
        description: 'proposed with an operator session',
        abi_version: 2,
        abi_hash: abiHashHex(abiDescriptor(2)),
        start_height: 1000,
      },
      headers,
    );

  before(async () => {
    t = await startServedNode({
      'operator.public_keys': [KEY],
      'operator.session_ttl_ms': TTL_MS,
      'operator.session_challenge_ttl_ms': TTL_MS,
    });
  });
  after(async () => t.stopAll());

  it('the challenge names this node, the key and its expiry; the token opens operator routes', async () => {
    const c = await challenge();
    const parts = parseChallengeText(c.challenge);
    assert.deepEqual(parts, {
      ...operatorAudience(t.node),
      operatorKey: KEY,
      challengeId: c.challenge_id,
      expiresAtMs: c.expires_at_ms,
    });
    const r = await answer(c, sign(SEED, c.challenge));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.match(r.body.token, /^[A-Za-z0-9_-]{43}$/);
    refused(await propose({}), 401, 'operator_auth_missing');
    const proposed = await propose(bearer(r.body.token));
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    assert.equal(proposed.body.ok, true);
    const list = await call('GET', '/v1/operator/sessions', undefined, bearer(r.body.token));
    assert.equal(list.status, 200);
    const mine = list.body.items.find((s: J) => s.session_id === r.body.session_id);
    assert.deepEqual(mine && { key: mine.operator_key, exp: mine.expires_at_ms }, {
      key: KEY,
      exp: r.body.expires_at_ms,
    });
    assert.equal(JSON.stringify(list.body).includes(r.body.token), false, 'tokens are never listed');
  });

  it('a used challenge is refused (replay); a bad signature does not spend it', async () => {
    const c = await challenge();
    refused(await answer(c, sign(OTHER_SEED, c.challenge)), 401, 'operator_auth_invalid');
    refused(await answer(c, sign(SEED, `${c.challenge}x`)), 401, 'operator_auth_invalid');
    refused(await answer(c, 'zz'.repeat(64)), 401, 'operator_auth_invalid');
    const good = sign(SEED, c.challenge);
    assert.equal((await answer(c, good)).status, 200);
    refused(await answer(c, good), 401, 'operator_challenge_used');
    refused(await answer({ challenge_id: 'no-such-challenge' }, good), 401, 'operator_challenge_unknown');
  });

  it('a key that is not an operator key gets no challenge, and cannot answer one for another key', async () => {
    const r = await call('POST', '/v1/operator/session/challenge', { public_key: OTHER_KEY });
    refused(r, 401, 'operator_auth_invalid');
    assert.equal(r.body.details.reason, 'unknown_key');
    const c = await challenge();
    const stolen = await answer(c, sign(OTHER_SEED, c.challenge), OTHER_KEY);
    refused(stolen, 401, 'operator_auth_invalid');
    assert.equal(stolen.body.details.reason, 'key_mismatch');
  });

  it('revocation by id, sign-out of the own session, unknown and malformed tokens', async () => {
    const a = await signIn();
    const b = await signIn();
    const del = await call('DELETE', `/v1/operator/sessions/${a.session_id}`, undefined, bearer(b.token));
    assert.deepEqual([del.status, del.body], [200, { session_id: a.session_id, revoked: true }]);
    refused(await propose(bearer(a.token)), 401, 'operator_session_revoked');
    refused(
      await call('DELETE', `/v1/operator/sessions/${a.session_id}`, undefined, bearer(b.token)),
      404,
      'operator_session_not_found',
    );
    const out = await call('DELETE', '/v1/operator/session', undefined, bearer(b.token));
    assert.deepEqual([out.status, out.body.session_id], [200, b.session_id]);
    refused(
      await call('GET', '/v1/operator/sessions', undefined, bearer(b.token)),
      401,
      'operator_session_revoked',
    );
    refused(await propose(bearer('A'.repeat(43))), 401, 'operator_session_unknown');
    const bad = await propose({ authorization: 'Bearer not-a-token' });
    refused(bad, 401, 'operator_auth_invalid');
    assert.equal(bad.body.details.reason, 'bearer_format');
    // A signed operator request still works, and has no session to sign out of.
    const path = '/v1/operator/session';
    const signed = signOperatorRequest({
      method: 'DELETE',
      url: path,
      seed: SEED,
      ...operatorAudience(t.node),
    });
    refused(await call('DELETE', path, undefined, signed), 404, 'operator_session_not_found');
    const audit = await call(
      'GET',
      '/v1/operator/sessions/audit',
      undefined,
      signOperatorRequest({
        method: 'GET',
        url: '/v1/operator/sessions/audit',
        seed: SEED,
        ...operatorAudience(t.node),
      }),
    );
    assert.equal(audit.status, 200);
    const events = audit.body.items
      .filter((e: J) => e.session_id === a.session_id || e.session_id === b.session_id)
      .map((e: J) => `${e.event}:${e.session_id === a.session_id ? 'a' : 'b'}`);
    assert.deepEqual(events, ['revoked:b', 'revoked:a', 'issued:b', 'issued:a']);
  });

  it('tokens and challenges expire', async () => {
    const s = await signIn();
    const c = await challenge();
    await sleep(TTL_MS + 100);
    refused(await propose(bearer(s.token)), 401, 'operator_session_expired');
    refused(await answer(c, sign(SEED, c.challenge)), 401, 'operator_challenge_expired');
  });

  it('sessions and challenges are node-local in the OpenAPI document', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/operator/session/challenge', 'post'],
      ['/v1/operator/session', 'post'],
      ['/v1/operator/sessions', 'get'],
      ['/v1/operator/sessions/{id}', 'delete'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      assert.equal(op?.['x-ledger-node-local'], true, `${method} ${path}`);
    }
  });

  it('the passkey routes are absent while operator.passkeys_enabled is off (404, not in OpenAPI)', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.startsWith('/v1/operator/auth/')),
      [],
    );
    const r = await call('POST', '/v1/operator/auth/login/options', {});
    assert.equal(r.status, 404, JSON.stringify(r.body));
  });
});
