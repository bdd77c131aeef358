import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlsKeyPair } from './bls.js';
import { isCryptoError } from './errors.js';
import { fromHex, toHex } from './hex.js';
import { publicKeyFromText } from './keys.js';
import { RANDOM_BYTES_MAX, randomBytes } from './random.js';
import { Ed25519KeyPair, isValidPublicKey, verifySignature } from './signer.js';

// RFC 8032 §7.1 TEST 2.
const SEED = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb';
const PUB = '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c';
const SIG_72 =
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00';

describe('signer: Ed25519KeyPair', () => {
  it('signs the RFC 8032 vector and prints both key texts', () => {
    const kp = Ed25519KeyPair.fromSeed(fromHex(SEED)!);
    assert.equal(toHex(kp.sign(fromHex('72')!)), SIG_72);
    assert.equal(kp.publicKey.algorithm, 'ed25519');
    assert.equal(kp.publicKeyText(), `ed0120${PUB.toUpperCase()}`);
    assert.equal(kp.privateKeyText(), `802620${SEED.toUpperCase()}`);
  });

  it('rebuilds from its private text, and refuses other algorithms and junk', () => {
    const kp = Ed25519KeyPair.generate();
    const again = Ed25519KeyPair.fromPrivateText(kp.privateKeyText());
    assert.deepEqual(again.publicKey, kp.publicKey);
    const bls = `892620${'11'.repeat(32)}`;
    for (const text of [bls, 'nope', kp.publicKeyText()]) {
      assert.throws(
        () => Ed25519KeyPair.fromPrivateText(text),
        (e) => isCryptoError(e) && e.code === 'invalid_secret',
      );
    }
  });

  it('gives its handshake key pair in the libsodium form (seed || public key)', () => {
    const kp = Ed25519KeyPair.fromSeed(fromHex(SEED)!);
    const hk = kp.handshakeKeyPair();
    assert.equal(toHex(hk.publicKey), PUB);
    assert.equal(hk.secretKey.length, 64);
    assert.equal(toHex(hk.secretKey), SEED + PUB);
  });

  it('generates a different key each time', () => {
    assert.notEqual(Ed25519KeyPair.generate().publicKeyText(), Ed25519KeyPair.generate().publicKeyText());
  });
});

describe('signer: verifySignature dispatch', () => {
  const message = new TextEncoder().encode('vote');

  it('verifies Ed25519 and BLS signatures by the algorithm of the key', () => {
    const ed = Ed25519KeyPair.generate();
    const bls = BlsKeyPair.fromSeed(new Uint8Array(32).fill(7));
    assert.equal(verifySignature(ed.publicKey, message, ed.sign(message)), true);
    assert.equal(verifySignature(bls.publicKey, message, bls.sign(message)), true);
    assert.equal(verifySignature(ed.publicKey, new Uint8Array(1), ed.sign(message)), false);
    assert.equal(verifySignature(bls.publicKey, new Uint8Array(1), bls.sign(message)), false);
    // The right bytes under the wrong algorithm tag never verify.
    assert.equal(
      verifySignature({ algorithm: 'bls12_381', bytes: ed.publicKey.bytes }, message, ed.sign(message)),
      false,
    );
  });

  it('answers false for unknown algorithms and malformed keys', () => {
    const ed = Ed25519KeyPair.generate();
    const sig = ed.sign(message);
    const weird = [
      null,
      undefined,
      {},
      { algorithm: 'rsa', bytes: ed.publicKey.bytes },
      { algorithm: 'ed25519' },
    ];
    for (const pk of weird) assert.equal(verifySignature(pk as never, message, sig), false);
  });

  it('checks point validity on request', () => {
    assert.equal(isValidPublicKey(Ed25519KeyPair.generate().publicKey), true);
    assert.equal(isValidPublicKey(BlsKeyPair.generate().publicKey), true);
    const identity = publicKeyFromText(`ed0120${'01'.padEnd(64, '0')}`);
    assert.equal(isValidPublicKey(identity as never), false);
    assert.equal(isValidPublicKey({ algorithm: 'bls12_381', bytes: new Uint8Array(48) }), false);
    assert.equal(isValidPublicKey({ algorithm: 'x' } as never), false);
  });
});

describe('random and hex helpers', () => {
  it('draws fresh bytes of the asked length and refuses nonsense lengths', () => {
    assert.equal(randomBytes(0).length, 0);
    const a = randomBytes(32);
    assert.equal(a.length, 32);
    assert.notDeepEqual(a, randomBytes(32));
    for (const n of [-1, 1.5, Number.NaN, RANDOM_BYTES_MAX + 1]) assert.throws(() => randomBytes(n));
  });

  it('decodes hex strictly', () => {
    assert.deepEqual(fromHex('00ffAa'), Uint8Array.from([0, 255, 170]));
    assert.equal(fromHex('abc'), undefined);
    assert.equal(fromHex('zz'), undefined);
    assert.equal(toHex(Uint8Array.from([0, 255, 170])), '00ffaa');
  });
});
