import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blake2b } from 'hash-wasm';
import { blake2b256, HASH_BYTES, hash, hashFromHex, hashToHex } from './hash.js';
import { fromHex, toHex } from './hex.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('hash: BLAKE2b-256', () => {
  it('matches the published BLAKE2b-256 vectors for "" and "abc"', () => {
    // BLAKE2b with digest length 32 in the parameter block (RFC 7693 §2.5), reference vectors.
    assert.equal(
      toHex(blake2b256(new Uint8Array(0))),
      '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8',
    );
    assert.equal(
      toHex(blake2b256(utf8('abc'))),
      'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
    );
  });

  it('equals hash-wasm blake2b(data, 256) across block boundaries and a large input', async () => {
    const lengths = [0, 1, 63, 64, 127, 128, 129, 255, 256, 257, 1000, 1 << 20];
    for (const n of lengths) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      assert.equal(toHex(blake2b256(data)), await blake2b(data, 256), `length ${n}`);
    }
  });

  it('hashes a view of a larger buffer by its own bytes only', () => {
    const big = Uint8Array.from({ length: 100 }, (_, i) => i);
    assert.deepEqual(blake2b256(big.subarray(10, 20)), blake2b256(big.slice(10, 20)));
  });
});

describe('hash: ledger hash (last bit forced)', () => {
  it('is BLAKE2b-256 with the lowest bit of byte 31 set, nothing else changed', () => {
    for (const s of ['', 'abc', 'torana', 'x'.repeat(300)]) {
      const plain = blake2b256(utf8(s));
      const h = hash(utf8(s));
      assert.equal(h.length, HASH_BYTES);
      assert.equal(h[31]! & 1, 1);
      assert.deepEqual(h.subarray(0, 31), plain.subarray(0, 31));
      assert.equal(h[31], plain[31]! | 1);
    }
    // BLAKE2b-256("") ends in 0xa8 (bit clear), so forcing really changes it.
    assert.equal(
      hashToHex(hash(new Uint8Array(0))),
      '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a9',
    );
  });

  it('round-trips through hex, lowercase out, either case in', () => {
    const h = hash(utf8('abc'));
    const text = hashToHex(h);
    assert.match(text, /^[0-9a-f]{64}$/);
    assert.deepEqual(hashFromHex(text), h);
    assert.deepEqual(hashFromHex(text.toUpperCase()), h);
  });

  it('parses strictly: length, digits and the last-bit rule', () => {
    const text = hashToHex(hash(utf8('abc')));
    assert.equal(hashFromHex(text.slice(0, 62)), undefined);
    assert.equal(hashFromHex(text.slice(0, 63)), undefined);
    assert.equal(hashFromHex(`${text}00`), undefined);
    assert.equal(hashFromHex(`${text.slice(0, 10)}g${text.slice(11)}`), undefined);
    assert.equal(hashFromHex(` ${text.slice(1)}`), undefined);
    assert.equal(hashFromHex(`0x${text.slice(2)}`), undefined);
    // A plain BLAKE2b digest with the bit clear is not a ledger hash.
    const plain = '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8';
    assert.equal(hashFromHex(plain), undefined);
    assert.deepEqual(hashFromHex(`${plain.slice(0, 63)}9`), fromHex(`${plain.slice(0, 63)}9`));
    assert.equal(hashFromHex(undefined as unknown as string), undefined);
  });
});
