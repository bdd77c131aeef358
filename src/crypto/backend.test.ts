// Both crypto backends (backend.ts) on the same inputs: the node backend (libsodium) and the browser
// backend (noble) must give identical keys, signatures, hashes and verification answers, including
// on the crafted signatures where Ed25519 verifiers are known to disagree (ed25519-fixture.ts).
// The browser backend is imported directly here; test/sdk/browser-bundle.test.ts checks that a
// browser bundle really selects it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ed25519 as noble } from '@noble/curves/ed25519';
import fc from 'fast-check';
import { blake2b } from 'hash-wasm';
import {
  hex,
  ORDER_8_POINT,
  RFC8032_VECTORS,
  SMALL_ORDER_KEYS,
  strictCases,
} from '../../test/fixtures/crypto/ed25519-fixture.js';
import type { CryptoBackend } from './backend.js';
import { backend as browserBackend } from './backend-browser.js';
import { cryptoBackendInfo } from './backend-info.js';
import { backend as nodeBackend } from './backend-node.js';
import { BlsKeyPair, blsAggregateSignatures } from './bls.js';
import { nobleBlsFastAggregateVerify, nobleBlsIsValidPublicKey, nobleBlsVerify } from './bls-noble.js';
import { ed25519Verify } from './ed25519.js';
import { toHex } from './hex.js';

const BACKENDS: readonly CryptoBackend[] = [nodeBackend, browserBackend];
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('crypto backends: each on the shared vectors', () => {
  for (const b of BACKENDS) {
    it(`${b.info.platform}: RFC 8032 §7.1 keys, signatures and verification`, () => {
      for (const v of RFC8032_VECTORS) {
        const { publicKey, secret } = b.ed25519FromSeed(hex(v.secretKey));
        assert.equal(toHex(publicKey), v.publicKey, v.name);
        assert.equal(toHex(secret), v.secretKey + v.publicKey, `${v.name}: seed ‖ public key`);
        assert.equal(toHex(b.ed25519Sign(secret, hex(v.message))), v.signature, v.name);
        assert.equal(b.ed25519Verify(publicKey, hex(v.message), hex(v.signature)), true, v.name);
        assert.equal(b.ed25519IsValidPoint(publicKey), true, v.name);
      }
    });

    it(`${b.info.platform}: libsodium's answer on every crafted signature`, () => {
      const cases = strictCases();
      assert.ok(cases.filter((c) => !c.strict && c.lax).length >= 13, 'the forgeries pass a lax verifier');
      for (const c of cases) {
        const answer = b.ed25519Verify(hex(c.publicKey), hex(c.message), hex(c.signature));
        assert.equal(answer, c.strict, c.name);
      }
    });

    it(`${b.info.platform}: point validity (small order, non-canonical, mixed order, off curve)`, () => {
      for (const key of SMALL_ORDER_KEYS) assert.equal(b.ed25519IsValidPoint(hex(key)), false, key);
      const a = noble.utils.getExtendedPublicKey(hex(RFC8032_VECTORS[0]!.secretKey)).point;
      const mixed = a.add(noble.Point.fromBytes(hex(ORDER_8_POINT), true)).toBytes();
      assert.equal(b.ed25519IsValidPoint(mixed), false, 'not in the prime-order subgroup');
      const offCurve = hex(`02${'00'.repeat(31)}`); // y = 2 has no x on the curve
      assert.equal(b.ed25519IsValidPoint(offCurve), false);
      assert.equal(b.ed25519Verify(offCurve, new Uint8Array(0), new Uint8Array(64)), false);
    });

    it(`${b.info.platform}: BLAKE2b-256 published vectors and hash-wasm across block sizes`, async () => {
      assert.equal(
        toHex(b.blake2b256(new Uint8Array(0))),
        '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8',
      );
      assert.equal(
        toHex(b.blake2b256(utf8('abc'))),
        'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
      );
      for (const n of [1, 127, 128, 129, 1000]) {
        const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
        assert.equal(toHex(b.blake2b256(data)), await blake2b(data, 256), `length ${n}`);
      }
    });

    it(`${b.info.platform}: BLAKE2b-256 of every small length and of views, each digest its own array`, async () => {
      const big = Uint8Array.from({ length: 200 }, (_, i) => (i * 13 + 5) & 0xff);
      const first = b.blake2b256(big.subarray(0, 10));
      const firstHex = toHex(first);
      for (let n = 0; n <= 66; n++) {
        const view = big.subarray(3, 3 + n);
        const d = b.blake2b256(view);
        assert.equal(toHex(d), await blake2b(view.slice(), 256), `length ${n}`);
        assert.equal(d.length, 32);
        assert.notEqual(d.buffer, first.buffer, 'a digest shares no bytes with an earlier one');
      }
      assert.equal(toHex(first), firstHex, 'an earlier digest is not overwritten by later hashes');
      assert.deepEqual(
        big,
        Uint8Array.from({ length: 200 }, (_, i) => (i * 13 + 5) & 0xff),
        'input untouched',
      );
    });
  }
});

describe('crypto backends: the node backend hashes the bytes of any view', () => {
  /** `n` bytes of a pattern at `offset` in a buffer of `offset + n + 3` bytes (shared or not). */
  function pattern(n: number, offset: number, shared = false): ArrayBuffer | SharedArrayBuffer {
    const buffer = shared ? new SharedArrayBuffer(offset + n + 3) : new ArrayBuffer(offset + n + 3);
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 29 + n) & 0xff;
    return buffer;
  }
  /** The digest of the view's bytes, by hash-wasm. */
  const expected = (v: ArrayBufferView) =>
    blake2b(new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice(), 256);
  // Byte lengths around the small-input copy (64 bytes): under, at, just past, well past.
  const LENGTHS = [2, 20, 64, 66, 100, 200];

  it('a Uint16Array or a DataView, small or large, at an offset: the digest of its bytes', async () => {
    for (const n of LENGTHS) {
      for (const offset of [0, 2]) {
        const u16 = new Uint16Array(pattern(n, offset), offset, n / 2);
        const dv = new DataView(pattern(n, offset), offset, n);
        for (const v of [u16, dv]) {
          const what = `${v.constructor.name} of ${n} bytes at ${offset}`;
          const d = nodeBackend.blake2b256(v as unknown as Uint8Array);
          assert.equal(toHex(d), await expected(v), what);
        }
      }
    }
  });

  it('a view of a SharedArrayBuffer is hashed (copied) whatever its size, as the browser backend does', async () => {
    for (const n of LENGTHS) {
      const shared = new Uint8Array(pattern(n, 1, true), 1, n);
      const want = await expected(shared);
      assert.equal(toHex(nodeBackend.blake2b256(shared)), want, `${n} bytes`);
      assert.equal(toHex(browserBackend.blake2b256(shared)), want, `${n} bytes, browser`);
      const u16 = new Uint16Array(pattern(n, 2, true), 2, n / 2);
      assert.equal(toHex(nodeBackend.blake2b256(u16 as unknown as Uint8Array)), await expected(u16));
    }
  });
});

describe('crypto backends: node and browser agree', () => {
  it('on keys, signatures and verification for random seeds and messages', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 300 }),
        (seed, m) => {
          const n = nodeBackend.ed25519FromSeed(seed);
          const w = browserBackend.ed25519FromSeed(seed);
          assert.deepEqual(w, n);
          const sig = nodeBackend.ed25519Sign(n.secret, m);
          assert.deepEqual(browserBackend.ed25519Sign(w.secret, m), sig);
          assert.equal(browserBackend.ed25519Verify(w.publicKey, m, sig), true);
          assert.deepEqual(browserBackend.blake2b256(m), nodeBackend.blake2b256(m));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('on arbitrary (mostly invalid) keys and signatures, never throwing', () => {
    const signed = nodeBackend.ed25519FromSeed(hex(RFC8032_VECTORS[1]!.secretKey));
    const message = utf8('agree');
    const good = nodeBackend.ed25519Sign(signed.secret, message);
    const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
    const flip = fc.tuple(fc.nat(63), fc.integer({ min: 1, max: 255 }));
    fc.assert(
      fc.property(bytes(32), bytes(64), flip, (key, sig, [at, x]) => {
        const tampered = good.slice();
        tampered[at]! ^= x;
        for (const [k, s] of [
          [key, sig],
          [signed.publicKey, tampered],
          [key, good],
        ] as const) {
          assert.equal(browserBackend.ed25519Verify(k, message, s), nodeBackend.ed25519Verify(k, message, s));
          assert.equal(browserBackend.ed25519IsValidPoint(k), nodeBackend.ed25519IsValidPoint(k));
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('crypto backends: what each offers', () => {
  it('names its platform; blst (node backend) and the pure-JavaScript BLS verifier agree', () => {
    assert.equal(nodeBackend.info.platform, 'node');
    assert.equal(browserBackend.info.platform, 'browser');
    const kps = [BlsKeyPair.generate(), BlsKeyPair.generate(), BlsKeyPair.generate()];
    const m = utf8('vote');
    const sig = kps[0]!.sign(m);
    const pks = kps.map((k) => k.publicKey.bytes);
    const agg = blsAggregateSignatures(kps.map((k) => k.sign(m)));
    const flipped = agg.slice();
    flipped[95]! ^= 1;
    const infinityKey = new Uint8Array(48);
    infinityKey[0] = 0xc0;
    // The verifier a light client uses where the backend offers no BLS (the browser's: bls-noble.ts).
    const noble = {
      blsVerify: nobleBlsVerify,
      blsIsValidPublicKey: nobleBlsIsValidPublicKey,
      blsFastAggregateVerify: nobleBlsFastAggregateVerify,
    } as unknown as CryptoBackend;
    const cases: [string, (b: CryptoBackend) => boolean, boolean][] = [
      ['one signature', (b) => b.blsVerify(pks[0]!, m, sig), true],
      ['another message', (b) => b.blsVerify(pks[0]!, utf8('votf'), sig), false],
      ['another key', (b) => b.blsVerify(pks[1]!, m, sig), false],
      ['valid key', (b) => b.blsIsValidPublicKey(pks[1]!), true],
      ['infinity key', (b) => b.blsIsValidPublicKey(infinityKey), false],
      ['aggregate of three', (b) => b.blsFastAggregateVerify(m, pks, agg), true],
      ['aggregate, one key missing', (b) => b.blsFastAggregateVerify(m, pks.slice(1), agg), false],
      ['aggregate, a bit flipped', (b) => b.blsFastAggregateVerify(m, pks, flipped), false],
      ['aggregate, no keys', (b) => b.blsFastAggregateVerify(m, [], agg), false],
      ['aggregate, an infinity key', (b) => b.blsFastAggregateVerify(m, [...pks, infinityKey], agg), false],
      ['aggregate, short signature', (b) => b.blsFastAggregateVerify(m, pks, agg.subarray(1)), false],
    ];
    for (const [name, run, want] of cases) {
      assert.equal(run(nodeBackend), want, `node: ${name}`);
      assert.equal(run(noble), want, `noble: ${name}`);
      assert.equal(run(browserBackend), false, `browser backend (no BLS): ${name}`);
    }
    assert.equal(nodeBackend.info.bls, true);
    assert.equal(browserBackend.info.bls, false);
  });

  it('the running (Node) build resolves #crypto-backend to the node backend', () => {
    assert.equal(cryptoBackendInfo(), nodeBackend.info);
    for (const c of strictCases()) {
      assert.equal(ed25519Verify(hex(c.publicKey), hex(c.message), hex(c.signature)), c.strict, c.name);
    }
  });
});
