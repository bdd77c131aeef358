// Integers (docs/codec.md §2): fixed little-endian u8/u16/u32/u64 and canonical unsigned LEB128.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fromHex, toHex } from '../util/hex.js';
import { decode, encode } from './frame.js';
import { assertRejected, decodeOk, lawTests } from './laws.test.js';
import { DEFAULT_DECODE_LIMITS } from './limits.js';
import { biguint, u8, u16, u32, u64, VARINT_MAGNITUDE_MAX, varint, varuint } from './primitives.js';

const RUNS = 100;
const limits = DEFAULT_DECODE_LIMITS;
const hex = (s: string) => fromHex(s.replace(/\s+/g, ''))!;
const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

/** Small values, every 7-bit boundary and the extremes, so each varint length is exercised. */
function boundaryNat(max: bigint): fc.Arbitrary<bigint> {
  const edges: bigint[] = [0n, 1n, max, max - 1n];
  for (let bits = 7n; 1n << bits <= max; bits += 7n) edges.push((1n << bits) - 1n, 1n << bits);
  return fc.oneof(fc.constantFrom(...edges), fc.bigInt(0n, 300n), fc.bigInt(0n, max));
}

describe('fixed-width integers (§2.1)', () => {
  describe('u8', () => lawTests(u8, fc.nat(0xff), { numRuns: 20 }));
  describe('u16', () => lawTests(u16, fc.nat(0xffff), { numRuns: RUNS }));
  describe('u32', () => lawTests(u32, fc.nat(0xffffffff), { numRuns: RUNS }));
  describe('u64', () => lawTests(u64, boundaryNat(U64_MAX), { numRuns: RUNS }));

  it('are little-endian with no prefix', () => {
    assert.equal(toHex(encode(u16, 0x1234)), '3412');
    assert.equal(toHex(encode(u32, 0xdeadbeef)), 'efbeadde');
    assert.equal(toHex(encode(u64, 0x0102030405060708n)), '0807060504030201');
    assert.equal(toHex(encode(u64, U64_MAX)), 'ffffffffffffffff');
    assert.equal(decodeOk(u32, hex('ffffffff')), 0xffffffff);
  });

  it('u64 has a decimal-string JSON form; numbers are accepted only while exact', () => {
    assert.equal(u64.toJson(U64_MAX), '18446744073709551615');
    assert.equal(u64.fromJson('18446744073709551615', ''), U64_MAX);
    assert.equal(u64.fromJson(42, ''), 42n);
    for (const bad of ['18446744073709551616', '-1', '01', '1.0', ' 1', 2 ** 53, -1, 1.5, null]) {
      assert.throws(() => u64.fromJson(bad, '$.n'), /\$\.n: expected a decimal integer string/, String(bad));
    }
  });

  it('fixed integers refuse JSON numbers out of range', () => {
    for (const bad of [-1, 256, 1.5, '1', null]) assert.throws(() => u8.fromJson(bad, ''), /0\.\.255/);
    assert.throws(() => u32.fromJson(2 ** 32, ''), /0\.\.4294967295/);
  });
});

describe('varuint: canonical unsigned LEB128 up to 2^53-1 (§2.2)', () => {
  const nat = boundaryNat(BigInt(Number.MAX_SAFE_INTEGER)).map(Number);
  lawTests(varuint, nat, { numRuns: RUNS * 2 });

  it('matches the LEB128 vectors', () => {
    const vectors: [number, string][] = [
      [0, '00'],
      [1, '01'],
      [127, '7f'],
      [128, '8001'],
      [300, 'ac02'],
      [16383, 'ff7f'],
      [16384, '808001'],
      [2 ** 32, '8080808010'],
      [Number.MAX_SAFE_INTEGER, 'ffffffffffffff0f'],
    ];
    for (const [v, h] of vectors) {
      assert.equal(toHex(encode(varuint, v)), h, String(v));
      assert.equal(decodeOk(varuint, hex(h)), v);
    }
  });

  it('rejects overlong forms (a zero last byte after the first) with codec_overlong_varint', () => {
    for (const h of ['8000', 'ff00', '808000', '818000', '8180808000', 'ffffffffffffff00']) {
      assertRejected(decode(varuint, hex(h), limits), 'codec_overlong_varint', h);
    }
  });

  it('rejects values above 2^53-1 and over-long runs with codec_varint_overflow', () => {
    for (const h of ['8080808080808010', 'ffffffffffffff7f', '808080808080808001', 'ffffffffffffffffff01']) {
      assertRejected(decode(varuint, hex(h), limits), 'codec_varint_overflow', h);
    }
  });

  it('a run of continuation bytes ends as truncated or overflow, never a value', () => {
    assertRejected(decode(varuint, hex('80'), limits), 'codec_truncated');
    assertRejected(decode(varuint, hex('ffffffffffffff'), limits), 'codec_truncated');
    assertRejected(decode(varuint, new Uint8Array(1000).fill(0x80), limits), 'codec_varint_overflow');
  });

  it('JSON form is a number; unsafe, negative and fractional numbers are refused', () => {
    assert.equal(varuint.toJson(5), 5);
    for (const bad of [-1, 1.5, 2 ** 53, '5', null])
      assert.throws(() => varuint.fromJson(bad, ''), /non-negative/);
  });
});

describe('varint: zig-zag then canonical LEB128 (§2.3)', () => {
  const M = VARINT_MAGNITUDE_MAX;
  const int = fc.oneof(
    fc.constantFrom(0, -1, 1, -64, 63, -65, 64, M, -M, M - 1, -M + 1),
    fc.integer({ min: -300, max: 300 }),
    fc.integer({ min: -M, max: M }),
  );
  lawTests(varint, int, { numRuns: RUNS * 2 });

  it('maps 0, -1, 1, -2, … to 0, 1, 2, 3, … so small magnitudes take one byte', () => {
    const vectors: [number, string][] = [
      [0, '00'],
      [-1, '01'],
      [1, '02'],
      [-2, '03'],
      [63, '7e'],
      [-64, '7f'],
      [64, '8001'],
      [-65, '8101'],
      [M, 'feffffffffffff0f'],
      [-M, 'fdffffffffffff0f'],
    ];
    for (const [v, h] of vectors) {
      assert.equal(toHex(encode(varint, v)), h, String(v));
      assert.equal(decodeOk(varint, hex(h)), v);
    }
  });

  it('refuses a magnitude above 2^52-1, in binary and in JSON', () => {
    assert.equal(M, 2 ** 52 - 1);
    // 2^53-1 would be -2^52: one past the range on the negative side.
    assertRejected(decode(varint, hex('ffffffffffffff0f'), limits), 'codec_varint_overflow');
    assertRejected(decode(varint, hex('8000'), limits), 'codec_overlong_varint');
    for (const bad of [2 ** 52, -(2 ** 52), 1.5, '1', null])
      assert.throws(() => varint.fromJson(bad, ''), /integer/);
    assert.equal(varint.fromJson(-M, ''), -M);
  });
});

describe('biguint(128): canonical LEB128 as a bigint (§2.4)', () => {
  const big = biguint(128);
  lawTests(big, boundaryNat(U128_MAX), { numRuns: RUNS * 2 });

  it('takes at most 19 bytes and refuses anything at or above 2^128', () => {
    assert.equal(toHex(encode(big, U128_MAX)), `${'ff'.repeat(18)}03`);
    assert.equal(toHex(encode(big, 1n << 63n)), '808080808080808080 01'.replace(' ', ''));
    const over = encode(biguint(135), 1n << 128n);
    assertRejected(decode(big, over, limits), 'codec_varint_overflow');
    assertRejected(decode(big, hex(`${'ff'.repeat(18)}04`), limits), 'codec_varint_overflow');
    assertRejected(decode(big, hex(`${'80'.repeat(19)}01`), limits), 'codec_varint_overflow');
    assertRejected(decode(big, hex('8000'), limits), 'codec_overlong_varint');
  });

  it('JSON form is a decimal string of at most 2^128-1', () => {
    assert.equal(big.toJson(U128_MAX), U128_MAX.toString());
    assert.equal(big.fromJson(U128_MAX.toString(), ''), U128_MAX);
    assert.throws(() => big.fromJson((U128_MAX + 1n).toString(), ''), /decimal integer string/);
  });
});
