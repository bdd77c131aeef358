// ToranaClient.operatorSignIn against a served node: the returned client opens operator routes with its
// token until signOut; a challenge text that is not a sign-in challenge for this key and chain is never
// signed.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ServedTestNode, startServedNode } from '../../../test/helpers/served.js';
import { Ed25519KeyPair } from '../../crypto/signer.js';
import { ToranaClient } from '../../sdk/client.js';
import { isToranaApiError } from '../../sdk/errors.js';
// Loading the module's SDK installs `client.operatorSignIn` (the registry loads it for every SDK user).
import './sdk.js';

const KEY = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x51));

describe('SDK operator sign-in', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode({ 'operator.public_keys': [KEY.publicKeyText()] });
  });
  after(async () => t.stopAll());

  it('signs in, calls an operator route with the token, signs out', async () => {
    const session = await new ToranaClient({ url: t.url }).operatorSignIn(KEY);
    assert.match(session.token, /^[A-Za-z0-9_-]{43}$/);
    const list = await session.client.http.json<{ items: { session_id: string }[] }>({
      method: 'GET',
      path: '/v1/operator/sessions',
    });
    assert.deepEqual(
      list.items.map((s) => s.session_id),
      [session.sessionId],
    );
    await session.signOut();
    await assert.rejects(
      session.client.http.json({ method: 'GET', path: '/v1/operator/sessions' }),
      (e) => isToranaApiError(e) && e.code === 'operator_session_revoked',
    );
  });

  it('refuses to sign a challenge made for another chain', async () => {
    const lying: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!String(input).endsWith('/v1/operator/session/challenge')) return res;
      const c = (await res.json()) as { challenge: string };
      c.challenge = c.challenge.replace('torana-test', 'other-chain');
      return new Response(JSON.stringify(c), { headers: { 'content-type': 'application/json' } });
    };
    const client = new ToranaClient({ url: t.url, fetch: lying, chainId: 'torana-test' });
    await assert.rejects(client.operatorSignIn(KEY), /not for this key and chain/);
  });
});
