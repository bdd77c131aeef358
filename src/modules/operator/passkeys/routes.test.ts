// Operator passkeys through a real socket, on a node with passkeys on and NO operator keys: the first
// passkey registers with the bootstrap secret (not without it), signs in, and its token opens operator
// routes (the session list names the passkey); the replayed sign-in is refused; the routes are in the
// OpenAPI document, marked per node. The switch off (404, not in OpenAPI) is in ../routes.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServedTestNode, startServedNode } from '../../../../test/helpers/served.js';
import { SoftAuthenticator } from '../../../../test/helpers/soft-authenticator.js';

const ORIGIN = 'http://localhost:8443';
const SECRET = 'routes-test-bootstrap-secret';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field.
type J = any;

describe('operator passkey routes', () => {
  let t: ServedTestNode;
  const auth = new SoftAuthenticator('localhost', ORIGIN);

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as J };
  }
  const refused = (r: { status: number; body: J }, status: number, code: string) => {
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.code, code, JSON.stringify(r.body));
  };

  before(async () => {
    t = await startServedNode({
      'operator.passkeys_enabled': true,
      'operator.passkey_origins': [ORIGIN],
      'operator.passkey_bootstrap_secret': SECRET,
    });
  });
  after(async () => t.stopAll());

  it('registers the first passkey with the bootstrap secret, signs in, and the token opens operator routes', async () => {
    refused(
      await call('POST', '/v1/operator/auth/registration/options', {}),
      401,
      'operator_passkey_bootstrap',
    );
    refused(await call('GET', '/v1/operator/sessions'), 401, 'operator_auth_missing');
    const o = await call('POST', '/v1/operator/auth/registration/options', {
      bootstrap_secret: SECRET,
      label: 'ops laptop',
    });
    assert.equal(o.status, 200, JSON.stringify(o.body));
    assert.equal(o.body.rp.id, 'localhost');
    assert.equal(o.body.timeout, 60_000);
    const reg = await call('POST', '/v1/operator/auth/registration/verify', auth.create(o.body));
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    assert.equal(reg.body.credential_id, auth.id);
    // The secret registers nothing more.
    const again = await call('POST', '/v1/operator/auth/registration/options', { bootstrap_secret: SECRET });
    refused(again, 401, 'operator_passkey_session_required');

    const lo = await call('POST', '/v1/operator/auth/login/options');
    assert.equal(lo.status, 200, JSON.stringify(lo.body));
    assert.deepEqual(
      lo.body.allowCredentials.map((c: J) => c.id),
      [auth.id],
    );
    const assertion = auth.get(lo.body);
    const s = await call('POST', '/v1/operator/auth/login/verify', assertion);
    assert.equal(s.status, 200, JSON.stringify(s.body));
    assert.deepEqual(Object.keys(s.body).sort(), ['expires_at_ms', 'session_id', 'token']);
    const bearer = { authorization: `Bearer ${s.body.token}` };
    const list = await call('GET', '/v1/operator/sessions', undefined, bearer);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.items.map((i: J) => i.operator_key),
      [`passkey:${auth.id}`],
    );
    const keys = await call('GET', '/v1/operator/auth/passkeys', undefined, bearer);
    assert.deepEqual(
      keys.body.items.map((i: J) => [i.credential_id, i.label, i.last_used_at_ms !== null]),
      [[auth.id, 'ops laptop', true]],
    );

    // The same assertion again: its challenge is spent.
    refused(await call('POST', '/v1/operator/auth/login/verify', assertion), 401, 'operator_challenge_used');
    // Replayed onto a fresh challenge (the counter it carries is no longer new): refused by the counter.
    const lo2 = await call('POST', '/v1/operator/auth/login/options');
    const stale = auth.get(lo2.body, { counter: auth.counter });
    refused(await call('POST', '/v1/operator/auth/login/verify', stale), 401, 'operator_passkey_replay');

    // A second passkey with the session.
    const o2 = await call('POST', '/v1/operator/auth/registration/options', { label: 'backup' }, bearer);
    assert.equal(o2.status, 200, JSON.stringify(o2.body));
    const second = new SoftAuthenticator('localhost', ORIGIN);
    const reg2 = await call('POST', '/v1/operator/auth/registration/verify', second.create(o2.body), bearer);
    assert.equal(reg2.status, 200, JSON.stringify(reg2.body));
  });

  it('documents the routes in OpenAPI as per-node state', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    for (const path of ['registration/options', 'registration/verify', 'login/options', 'login/verify']) {
      const op = doc.paths[`/v1/operator/auth/${path}`]?.post;
      assert.ok(op, path);
      assert.equal(op['x-ledger-node-local'], true, path);
      assert.match(op.description, /Per node/);
    }
  });
});
