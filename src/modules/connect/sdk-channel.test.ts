import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ConnectChannel,
  connectKeyPair,
  connectSid,
  helloPublicKey,
  pairingUri,
  parsePairingUri,
} from './sdk-channel.js';

function pair() {
  const appKeys = connectKeyPair();
  const walletKeys = connectKeyPair();
  const sid = connectSid(appKeys.publicKey);
  const wallet = new ConnectChannel('wallet', sid, walletKeys, appKeys.publicKey);
  const hello = wallet.hello(walletKeys.publicKey, { t: 'hello', account: 'alice' });
  const app = new ConnectChannel('app', sid, appKeys, helloPublicKey(hello)!);
  return { app, wallet, hello, sid, appKeys };
}

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'none';
};

describe('Connect channel', () => {
  it('pairs: the app opens the hello and both directions round-trip; no plaintext in a frame', () => {
    const { app, wallet, hello } = pair();
    assert.deepEqual(app.open(hello), { t: 'hello', account: 'alice' });
    const secret = 'sign-this-transfer-of-12-roses';
    const f = app.seal({ t: 'sign_request', id: 1, payload: secret });
    assert.ok(!Buffer.from(f).toString('latin1').includes(secret));
    assert.deepEqual(wallet.open(f), { t: 'sign_request', id: 1, payload: secret });
    assert.deepEqual(app.open(wallet.seal({ t: 'sign_result', id: 1 })), { t: 'sign_result', id: 1 });
  });

  it('refuses a replayed, reordered or tampered frame, and one of another direction', () => {
    const { app, wallet, hello } = pair();
    app.open(hello);
    const f1 = app.seal({ n: 1 });
    const f2 = app.seal({ n: 2 });
    assert.equal(
      code(() => wallet.open(f2)),
      'sequence',
    );
    assert.deepEqual(wallet.open(f1), { n: 1 });
    assert.equal(
      code(() => wallet.open(f1)),
      'sequence',
    );
    const bad = Uint8Array.from(f2);
    bad[bad.length - 1]! ^= 1;
    assert.equal(
      code(() => wallet.open(bad)),
      'decrypt',
    );
    assert.deepEqual(wallet.open(f2), { n: 2 });
    // The app's own frame sent back to it (a reflection) at the sequence number it waits for: sealed
    // under the other direction's key, refused.
    assert.equal(
      code(() => app.open(f2)),
      'decrypt',
    );
  });

  it('a pairing URI carries the app key, which must hash to the sid', () => {
    const { sid, appKeys } = pair();
    const uri = pairingUri(
      `torana-connect:${sid}?node=http%3A%2F%2F127.0.0.1%3A1&token=tok`,
      appKeys.publicKey,
    );
    const p = parsePairingUri(uri);
    assert.equal(p.sid, sid);
    assert.equal(p.node, 'http://127.0.0.1:1');
    assert.equal(p.token, 'tok');
    const other = connectKeyPair();
    const forged = pairingUri(`torana-connect:${sid}?node=http%3A%2F%2Fx&token=tok`, other.publicKey);
    assert.equal(
      code(() => parsePairingUri(forged)),
      'sid_mismatch',
    );
    assert.equal(
      code(() => parsePairingUri('https://example.com')),
      'uri_invalid',
    );
  });
});
