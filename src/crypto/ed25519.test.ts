// Ed25519 against RFC 8032 §7.1 and the strictness rules of ed25519.ts. The lax reference used to
// show that the crafted signatures are "valid" under permissive rules is noble's ZIP-215 mode.
// The vectors live in ed25519-fixture.ts (RFC 8032 §7.1 TEST 1, 2, 3, 1024, SHA(abc)) so that
// backend.test.ts and the SDK's browser-bundle test hold the browser backend to the same ones.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { ed25519 as noble } from '@noble/curves/ed25519';
import {
  bigintToLe32,
  concat,
  hex,
  L,
  leToBigint,
  RFC8032_VECTORS,
  SMALL_ORDER_KEYS,
} from '../../test/fixtures/crypto/ed25519-fixture.js';
import {
  Ed25519Signer,
  ed25519Generate,
  ed25519IsValidPublicKey,
  ed25519KeyPairFromSeed,
  ed25519Sign,
  ed25519Verify,
} from './ed25519.js';
import { isCryptoError } from './errors.js';
import { toHex } from './hex.js';

describe('ed25519: RFC 8032 §7.1 test vectors', () => {
  for (const v of RFC8032_VECTORS) {
    it(`${v.name}: public key, signature and verification`, () => {
      const kp = ed25519KeyPairFromSeed(hex(v.secretKey));
      assert.equal(toHex(kp.publicKey), v.publicKey);
      const message = hex(v.message);
      const sig = ed25519Sign(kp.seed, message);
      assert.equal(toHex(sig), v.signature);
      assert.equal(ed25519Verify(kp.publicKey, message, sig), true);
      assert.equal(toHex(new Ed25519Signer(hex(v.secretKey)).sign(message)), v.signature);
    });
  }
});

describe('ed25519: strict verification', () => {
  const v = RFC8032_VECTORS[2]!; // TEST 3, message af82
  const pk = hex(v.publicKey);
  const msg = hex(v.message);
  const sig = hex(v.signature);

  it('rejects a wrong message, a wrong key and a flipped signature bit', () => {
    assert.equal(ed25519Verify(pk, hex('af83'), sig), false);
    assert.equal(ed25519Verify(hex(RFC8032_VECTORS[0]!.publicKey), msg, sig), false);
    const flipped = sig.slice();
    flipped[10]! ^= 1;
    assert.equal(ed25519Verify(pk, msg, flipped), false);
  });

  it('rejects S replaced by S + L (non-canonical scalar, RFC 8032 §5.1.7)', () => {
    const s = leToBigint(sig.subarray(32));
    assert.ok(s < L);
    const malleated = concat(sig.subarray(0, 32), bigintToLe32(s + L));
    assert.equal(malleated[63]! & 0xe0, 0, 'S + L still passes a top-bits-only check');
    assert.equal(ed25519Verify(pk, msg, malleated), false);
  });

  it('rejects small-order and non-canonical public keys that lax verifiers accept', () => {
    // With A of small order, (R = rB, S = r) satisfies the cofactored equation for any message.
    const r = 0x1234567890abcdefn;
    const forged = concat(noble.ExtendedPoint.BASE.multiply(r).toRawBytes(), bigintToLe32(r));
    for (const key of SMALL_ORDER_KEYS) {
      const a = hex(key);
      assert.ok(noble.ExtendedPoint.fromHex(a, true).isSmallOrder(), `${key} is small order`);
      assert.equal(noble.verify(forged, msg, a, { zip215: true }), true, `lax accepts ${key}`);
      assert.equal(ed25519Verify(a, msg, forged), false, `strict rejects ${key}`);
      assert.equal(ed25519IsValidPublicKey(a), false);
    }
  });

  it('rejects a small-order R (here the identity) with an otherwise consistent S', () => {
    const { scalar, pointBytes } = noble.utils.getExtendedPublicKey(hex(v.secretKey));
    const rBytes = hex(SMALL_ORDER_KEYS[0]!);
    const k =
      leToBigint(
        createHash('sha512')
          .update(concat(rBytes, pointBytes, msg))
          .digest(),
      ) % L;
    const forged = concat(rBytes, bigintToLe32((k * scalar) % L));
    assert.equal(noble.verify(forged, msg, pk, { zip215: true }), true, 'lax accepts');
    assert.equal(ed25519Verify(pk, msg, forged), false);
  });

  it('answers false, never throws, on wrong lengths and wrong types', () => {
    assert.equal(ed25519Verify(pk.subarray(0, 31), msg, sig), false);
    assert.equal(ed25519Verify(concat(pk, new Uint8Array(1)), msg, sig), false);
    assert.equal(ed25519Verify(pk, msg, sig.subarray(0, 63)), false);
    assert.equal(ed25519Verify(pk, msg, concat(sig, new Uint8Array(1))), false, 'no trailing bytes');
    assert.equal(ed25519Verify(pk, msg, new Uint8Array(0)), false);
    const untyped = (x: unknown) => x as Uint8Array;
    assert.equal(ed25519Verify(untyped('x'.repeat(32)), msg, sig), false);
    assert.equal(ed25519Verify(pk, untyped(null), sig), false);
    assert.equal(ed25519Verify(pk, msg, untyped([...sig])), false);
    assert.equal(ed25519IsValidPublicKey(pk), true);
    assert.equal(ed25519IsValidPublicKey(pk.subarray(1)), false);
  });
});

describe('ed25519: keys', () => {
  it('generates distinct working key pairs', () => {
    const a = ed25519Generate();
    const b = ed25519Generate();
    assert.notDeepEqual(a.seed, b.seed);
    assert.deepEqual(ed25519KeyPairFromSeed(a.seed).publicKey, a.publicKey);
    const m = new TextEncoder().encode('hello');
    assert.equal(ed25519Verify(a.publicKey, m, ed25519Sign(a.seed, m)), true);
    assert.equal(ed25519Verify(b.publicKey, m, ed25519Sign(a.seed, m)), false);
  });

  it('refuses a seed of the wrong length with a typed error', () => {
    for (const n of [0, 31, 33, 64]) {
      assert.throws(
        () => ed25519KeyPairFromSeed(new Uint8Array(n)),
        (e) => isCryptoError(e) && e.code === 'invalid_secret',
      );
    }
  });

  it('keeps the seed retrievable but not shared', () => {
    const seed = hex(RFC8032_VECTORS[0]!.secretKey);
    const signer = new Ed25519Signer(seed);
    const copy = signer.seed();
    assert.deepEqual(copy, seed);
    copy[0]! ^= 1;
    assert.deepEqual(signer.seed(), seed);
  });
});
