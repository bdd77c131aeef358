// Primitive codecs (docs/codec.md §3): property laws for each, then the specific rejections.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fromHex, toHex } from '../util/hex.js';
import { CodecError } from './errors.js';
import { decode, encode } from './frame.js';
import { JSON_DEPTH_MAX, jsonDepth } from './json.js';
import { assertRejected, decodeOk, jsonValueArb, lawTests } from './laws.test.js';
import { DEFAULT_DECODE_LIMITS } from './limits.js';
import { bool, bytes, fixedBytes, jsonValue, string } from './primitives.js';

const RUNS = 100;
const limits = DEFAULT_DECODE_LIMITS;
const hex = (s: string) => fromHex(s.replace(/\s+/g, ''))!;
const isJsonError = (e: unknown) => e instanceof CodecError && e.code === 'codec_invalid_json';

describe('bool (§3.1)', () => {
  lawTests(bool, fc.boolean(), { numRuns: 20 });
  it('is one byte, 0 or 1; 2 is codec_invalid_bool', () => {
    assert.equal(toHex(encode(bool, false)), '00');
    assert.equal(toHex(encode(bool, true)), '01');
    for (const b of [2, 0x80, 0xff])
      assertRejected(decode(bool, new Uint8Array([b]), limits), 'codec_invalid_bool');
  });
});

describe('string (§3.2)', () => {
  const s = string(256);
  describe('any code points', () =>
    lawTests(s, fc.string({ unit: 'binary', maxLength: 40 }), { numRuns: RUNS }));
  describe('graphemes', () => lawTests(s, fc.string({ unit: 'grapheme', maxLength: 20 }), { numRuns: RUNS }));

  it('is a varint byte length then UTF-8', () => {
    assert.equal(toHex(encode(s, '')), '00');
    assert.equal(toHex(encode(s, 'abc')), '03616263');
    assert.equal(toHex(encode(s, 'é€😀')), '09' + 'c3a9' + 'e282ac' + 'f09f9880');
    const long = 'x'.repeat(200);
    assert.equal(toHex(encode(s, long)).slice(0, 4), 'c801');
  });

  it('rejects every kind of invalid UTF-8 with codec_invalid_utf8', () => {
    const bad = {
      'stray continuation byte': '0180',
      'overlong "/" (C0 AF)': '02c0af',
      'overlong NUL (E0 80 80)': '03e08080',
      'UTF-16 surrogate (ED A0 80)': '03eda080',
      'above U+10FFFF (F4 90 80 80)': '04f4908080',
      'cut multi-byte sequence': '02e282',
      'invalid byte FF': '01ff',
      'bad byte in a long string': '47' + '61'.repeat(70) + 'ff',
    };
    for (const [what, h] of Object.entries(bad))
      assertRejected(decode(s, hex(h), limits), 'codec_invalid_utf8', what);
  });

  it('keeps a byte-order mark (it is a character, not a signature)', () => {
    assert.equal(decodeOk(s, hex('03efbbbf')), '\ufeff');
  });

  it('refuses to encode a lone surrogate, which has no UTF-8 form', () => {
    for (const v of ['\ud800', 'a\udc00b', 'x'.repeat(70) + '\ud83d']) {
      assert.throws(
        () => encode(s, v),
        (e) => e instanceof CodecError && e.code === 'codec_invalid_utf8',
      );
    }
    assert.equal(toHex(encode(s, '\ud83d\ude00')), '04f09f9880', 'a surrogate pair is one character');
  });

  it('checks the declared byte limit on decode and in JSON', () => {
    const short = string(3);
    assertRejected(decode(short, hex('0461626364'), limits), 'codec_length_limit');
    assert.equal(decodeOk(short, hex('03616263')), 'abc');
    assert.throws(() => short.fromJson('abcd', '$.x'), isJsonError);
    assert.throws(() => short.fromJson('éé', '$.x'), /at most 3 bytes/);
    assert.equal(short.fromJson('é', ''), 'é');
  });
});

describe('bytes and fixed bytes (§3.3, §3.4)', () => {
  const b = bytes(64);
  describe('bytes(64)', () => lawTests(b, fc.uint8Array({ maxLength: 64 }), { numRuns: RUNS }));
  const f = fixedBytes(32);
  describe('fixedBytes(32)', () =>
    lawTests(f, fc.uint8Array({ minLength: 32, maxLength: 32 }), { numRuns: RUNS }));

  it('bytes: varint length then the bytes; JSON is lowercase hex', () => {
    assert.equal(toHex(encode(b, new Uint8Array([0xab, 0xcd]))), '02abcd');
    assert.equal(b.toJson(new Uint8Array([0xab, 0xcd])), 'abcd');
    assert.deepEqual(b.fromJson('ABcd', ''), new Uint8Array([0xab, 0xcd]));
    assertRejected(decode(bytes(2), hex('03010203'), limits), 'codec_length_limit');
    for (const j of ['abc', 'zz', 12, null]) assert.throws(() => b.fromJson(j, ''), /expected a hex string/);
  });

  it('fixed bytes: no prefix; a wrong length is refused on both sides', () => {
    assert.equal(encode(f, new Uint8Array(32).fill(7)).length, 32);
    assert.throws(
      () => encode(f, new Uint8Array(31)),
      (e) => e instanceof CodecError && e.code === 'codec_invalid_value',
    );
    assert.throws(() => f.fromJson('00'.repeat(33), ''), /32 bytes/);
    assertRejected(decode(f, new Uint8Array(31), limits), 'codec_truncated');
  });

  it('the decoded bytes do not alias the input buffer', () => {
    const input = hex('0201020304');
    const out = decodeOk(bytes(8), input.subarray(0, 3));
    input[1] = 0xff;
    assert.deepEqual(out, new Uint8Array([1, 2]));
  });
});

describe('JSON values (§3.7)', () => {
  const j = jsonValue(4096);
  lawTests(j, jsonValueArb(3), { numRuns: RUNS });

  it('is the canonical JSON text as a string: sorted keys, no whitespace', () => {
    const text = '{"a":[1,2.5,"x",null,true],"b":{"c":{}}}';
    const encoded = encode(j, { b: { c: {} }, a: [1, 2.5, 'x', null, true] });
    assert.equal(new TextDecoder().decode(encoded.subarray(1)), text);
    assert.equal(encoded[0], text.length);
  });

  it('rejects JSON text that is not canonical, or not JSON at all', () => {
    const bad = [
      '{"b":1,"a":2}', // unsorted keys
      '{"a": 1}', // whitespace
      ' 1',
      '1.0',
      '1e2',
      '-0',
      '{"a":1,"a":1}', // duplicate key
      '"\\u0061"', // needless escape
      '[1,]',
      '{',
      '',
      'undefined',
    ];
    for (const text of bad) {
      const w = new TextEncoder().encode(text);
      const input = new Uint8Array([w.length, ...w]);
      assertRejected(decode(j, input, limits), 'codec_invalid_value', JSON.stringify(text));
    }
  });

  it('normalises JSON input: negative zero becomes 0, key order is irrelevant', () => {
    assert.equal(Object.is(j.fromJson(-0, ''), 0), true);
    assert.equal(toHex(encode(j, j.fromJson({ b: 1, a: 2 }, ''))), toHex(encode(j, { a: 2, b: 1 })));
  });

  it('checks the byte limit of the canonical text', () => {
    const small = jsonValue(8);
    assert.equal(decodeOk(small, encode(small, 'abcdef')), 'abcdef');
    assert.throws(() => small.fromJson('abcdefgh', '$.v'), isJsonError);
    assertRejected(decode(small, encode(jsonValue(), 'abcdefgh'), limits), 'codec_length_limit');
  });

  it('nesting deeper than JSON_DEPTH_MAX is codec_depth_limit whatever the stack size', () => {
    const nest = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const big = jsonValue(64 * 1024);
    assert.equal(JSON_DEPTH_MAX, 32);
    assert.deepEqual(decodeOk(big, encode(string(), nest(32))), JSON.parse(nest(32)));
    for (const depth of [33, 1000, 30_000]) {
      assertRejected(
        decode(big, encode(string(), nest(depth)), limits),
        'codec_depth_limit',
        `depth ${depth}`,
      );
      assert.throws(() => big.fromJson(JSON.parse(nest(depth)), '$.v'), isJsonError);
    }
    // Brackets inside strings, escaped quotes included, do not count.
    const quoted = JSON.stringify(['\\"[[[[', '{'.repeat(40)]);
    assert.equal(jsonDepth(quoted), 1);
    assert.deepEqual(decodeOk(big, encode(string(), quoted)), JSON.parse(quoted));
  });

  it('refuses non-finite numbers and non-JSON values', () => {
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, [1, Number.NEGATIVE_INFINITY]]) {
      assert.throws(
        () => encode(j, v as never),
        (e) => e instanceof CodecError,
      );
      assert.throws(() => j.fromJson(v, '$.v'), isJsonError);
    }
  });
});
