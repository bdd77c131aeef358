// The bridge's read routes (record, audit manifest, XML reports) accept an operator sign-in session as
// well as a participant's signed request (gateway/signed-or-session.ts; docs/iso20022.md "Participants"):
// a signed-in operator reads any message; an unknown or revoked token is 401, never a fall-back to the
// participant check; submissions still need a participant's signature.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ed25519KeyPair, ToranaClient } from '../../src/sdk/index.js';
import { type BridgeNode, EUR, post, settledOrRejected, startBridgeNode, waitFor } from './bridge-fixture.js';
import { pacs008Sample } from './messages.js';

const OPERATOR = Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(0x51));
const MSG = 'DEUT-P008-20251126-OPREAD1';

describe('bridge reads with an operator session', () => {
  let b: BridgeNode;
  let token: string;
  let signOut: () => Promise<unknown>;
  before(async () => {
    b = await startBridgeNode({ 'operator.public_keys': [OPERATOR.publicKeyText()] });
    const r = await post(
      b,
      'pacs008',
      pacs008Sample(MSG, { source: b.alice.id, target: b.bob.id, asset: EUR }),
    );
    assert.equal(r.status, 202, JSON.stringify(r.body));
    await waitFor(b, MSG, settledOrRejected);
    const s = await new ToranaClient({ url: b.url }).operatorSignIn(OPERATOR);
    token = s.token;
    signOut = s.signOut;
  });
  after(() => b.stopAll());

  const read = (path: string, headers: Record<string, string>) =>
    fetch(`${b.url}${path}`, { headers }).then(async (r) => ({ status: r.status, text: await r.text() }));
  const bearer = () => ({ authorization: `Bearer ${token}` });

  it('reads the record, the audit manifest and a generated report with the bearer token', async () => {
    const rec = await read(`/v1/iso20022/messages/${MSG}`, bearer());
    assert.equal(rec.status, 200, rec.text);
    assert.equal(JSON.parse(rec.text).pacs002_code, 'ACSC');
    const audit = await read('/v1/iso20022/audit/messages?limit=50', bearer());
    assert.equal(audit.status, 200, audit.text);
    assert.ok(JSON.parse(audit.text).entries.some((e: { message_id: string }) => e.message_id === MSG));
    const xml = await read(`/v1/iso20022/messages/${MSG}/pacs002`, bearer());
    assert.equal(xml.status, 200, xml.text);
    assert.match(xml.text, /<GrpSts>ACSC<\/GrpSts>/);
  });

  it('refuses reads without credentials, with a malformed or unknown token, and after sign-out', async () => {
    const none = await read(`/v1/iso20022/messages/${MSG}`, {});
    assert.equal(none.status, 401);
    assert.equal(JSON.parse(none.text).code, 'signature_missing');
    const malformed = await read(`/v1/iso20022/messages/${MSG}`, { authorization: 'Bearer nope' });
    assert.equal(JSON.parse(malformed.text).code, 'operator_auth_invalid');
    const unknown = await read('/v1/iso20022/audit/messages', { authorization: `Bearer ${'A'.repeat(43)}` });
    assert.equal(unknown.status, 401);
    assert.equal(JSON.parse(unknown.text).code, 'operator_session_unknown');
    await signOut();
    const revoked = await read(`/v1/iso20022/messages/${MSG}/pacs002`, bearer());
    assert.equal(revoked.status, 401);
    assert.match(JSON.parse(revoked.text).code, /^operator_session_/);
  });

  it('still needs a participant signature to submit', async () => {
    const xml = pacs008Sample('DEUT-P008-20251126-OPREAD2', {
      source: b.alice.id,
      target: b.bob.id,
      asset: EUR,
    });
    const r = await post(b, 'pacs008', xml, bearer(), null);
    assert.equal(r.status, 401, JSON.stringify(r.body));
    assert.equal(r.body.code, 'signature_missing');
  });
});
