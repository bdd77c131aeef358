import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCryptoError } from './errors.js';
import { fromHex } from './hex.js';
import type { PublicKey } from './keys.js';
import {
  isKeyTextError,
  KEY_TEXT_CHARS_MAX,
  privateKeyFromText,
  privateKeyToText,
  publicKeyEquals,
  publicKeyFromText,
  publicKeyToText,
} from './keys.js';

// RFC 8032 §7.1 TEST 1 and the consensus-spec-tests BLS key of sign_case_c82df61aa3ee60fb.
const ED_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const ED_PUB = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const BLS_PUB =
  'a491d1b0ecd9bb917989f0e74f0dea0422eac4a873e5e2644f368dffb9a6e20fd6e10c1b77654d067c0618f6e5a7f79a';
const BLS_SECRET = '263dbd792f5b1be47ed85f8938c0f29586af0d3ac7b977f21c278fe1462040e3';

const edPub: PublicKey = { algorithm: 'ed25519', bytes: fromHex(ED_PUB)! };
const blsPub: PublicKey = { algorithm: 'bls12_381', bytes: fromHex(BLS_PUB)! };

describe('keys: text forms', () => {
  it('writes multicodec prefixes with uppercase key hex', () => {
    assert.equal(publicKeyToText(edPub), `ed0120${ED_PUB.toUpperCase()}`);
    assert.equal(publicKeyToText(blsPub), `ea0130${BLS_PUB.toUpperCase()}`);
    assert.equal(
      privateKeyToText({ algorithm: 'ed25519', bytes: fromHex(ED_SEED)! }),
      `802620${ED_SEED.toUpperCase()}`,
    );
    assert.equal(
      privateKeyToText({ algorithm: 'bls12_381', bytes: fromHex(BLS_SECRET)! }),
      `892620${BLS_SECRET.toUpperCase()}`,
    );
  });

  it('round-trips and accepts either hex case', () => {
    for (const k of [edPub, blsPub]) {
      const text = publicKeyToText(k);
      for (const variant of [text, text.toLowerCase(), text.toUpperCase()]) {
        const back = publicKeyFromText(variant);
        assert.ok(!isKeyTextError(back));
        assert.ok(publicKeyEquals(back, k));
      }
    }
    const priv = privateKeyFromText(`802620${ED_SEED}`);
    assert.ok(!isKeyTextError(priv));
    assert.equal(priv.algorithm, 'ed25519');
    assert.deepEqual(priv.bytes, fromHex(ED_SEED));
    const blsPriv = privateKeyFromText(`892620${BLS_SECRET}`);
    assert.ok(!isKeyTextError(blsPriv) && blsPriv.algorithm === 'bls12_381');
  });

  it('refuses wrong prefixes, lengths, digits and types with invalid_key_text', () => {
    const good = publicKeyToText(edPub);
    const bad: unknown[] = [
      '',
      'ed0120',
      good.slice(0, -2),
      `${good}00`,
      `${good.slice(0, -1)}G`,
      `ed0121${good.slice(6)}`, // length byte says 33
      `ea0130${good.slice(6)}`, // BLS prefix with an Ed25519-sized key
      `ed0120${BLS_PUB}`, // Ed25519 prefix with a BLS-sized key
      `802620${good.slice(6)}`, // a private prefix is not a public key
      ` ${good}`,
      `0x${good}`,
      'e'.repeat(KEY_TEXT_CHARS_MAX + 1),
      undefined,
      42,
    ];
    for (const s of bad) {
      const r = publicKeyFromText(s as string);
      assert.ok(isKeyTextError(r), `should refuse ${String(s)}`);
      assert.equal(r.code, 'invalid_key_text');
      assert.ok(r.message.length > 0);
    }
    assert.ok(isKeyTextError(privateKeyFromText(good)));
  });

  it('never repeats private key text in its errors', () => {
    const secretish = `802620${ED_SEED.slice(0, 62)}ZZ`;
    const r = privateKeyFromText(secretish);
    assert.ok(isKeyTextError(r));
    assert.ok(!r.message.includes(ED_SEED.slice(0, 16)));
  });

  it('compares keys by algorithm and bytes', () => {
    assert.ok(publicKeyEquals(edPub, { algorithm: 'ed25519', bytes: fromHex(ED_PUB)! }));
    const other = fromHex(ED_PUB)!;
    other[0]! ^= 1;
    assert.ok(!publicKeyEquals(edPub, { algorithm: 'ed25519', bytes: other }));
    assert.ok(!publicKeyEquals(edPub, { algorithm: 'bls12_381', bytes: edPub.bytes }));
  });

  it('recognises only its own error objects', () => {
    assert.ok(!isKeyTextError(edPub));
    assert.ok(!isKeyTextError(null));
    assert.ok(!isKeyTextError('invalid_key_text'));
  });

  it('throws invalid_key when asked to print a key of the wrong size or algorithm', () => {
    const wrong = [
      { algorithm: 'ed25519', bytes: new Uint8Array(31) },
      { algorithm: 'bls12_381', bytes: new Uint8Array(32) },
      { algorithm: 'secp256k1', bytes: new Uint8Array(32) },
    ] as PublicKey[];
    for (const k of wrong) {
      assert.throws(
        () => publicKeyToText(k),
        (e) => isCryptoError(e) && e.code === 'invalid_key',
      );
    }
  });
});
