// Shared property laws for codecs (docs/codec.md; docs/design/testing.md "Tests we keep"). The file is named
// *.test.ts so the build leaves it out (it needs fast-check, a dev dependency); it registers no tests
// itself. `lawTests` registers one `it` per law inside the caller's `describe`.
//
// The laws, for a codec C and values v drawn from an arbitrary:
//   (a) decode(encode(v)) deep-equals v
//   (b) canonical: any byte string C accepts re-encodes to exactly itself (checked on valid encodings
//       and on mutated ones that still decode)
//   (c) every strict prefix of a valid encoding is rejected with a typed CodecError
//   (d) a valid encoding followed by extra bytes is rejected with codec_trailing_bytes
//   (e) arbitrary bytes give a typed result, never an exception, each within RANDOM_INPUT_MS_MAX
//   (f) fromJson(toJson(v)) deep-equals v, also after JSON.stringify / JSON.parse
// fast-check prints the seed and the shrunk counterexample of any failure; keep failing seeds as
// regression tests.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { timingBound } from '../../test/helpers/timing-bound.js';
import { toHex } from '../util/hex.js';
import type { Codec, Json } from './codec.js';
import { CodecError, type CodecErrorCode } from './errors.js';
import { type DecodeResult, decode, encode } from './frame.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from './limits.js';

/** docs/design/testing.md: every fuzz input must be answered within 100 ms. */
export const RANDOM_INPUT_MS_MAX = 100;
/** Tries of one slow input before the time bound counts as broken (decodeTimed). */
const RANDOM_INPUT_TRIES = 3;
/** Random inputs for law (e): long enough to reach nested fields, short enough to stay fast. */
const RANDOM_INPUT_BYTES_MAX = 512;
/** Encodings longer than this have their prefixes sampled rather than all tried (law (c) is O(n²)). */
const PREFIXES_ALL_BYTES_MAX = 1024;
const PREFIX_SAMPLES = 256;

export const CODEC_ERROR_CODES: readonly CodecErrorCode[] = [
  'codec_truncated',
  'codec_trailing_bytes',
  'codec_overlong_varint',
  'codec_varint_overflow',
  'codec_bad_magic',
  'codec_unsupported_version',
  'codec_unknown_flags',
  'codec_schema_mismatch',
  'codec_checksum_mismatch',
  'codec_length_limit',
  'codec_depth_limit',
  'codec_invalid_tag',
  'codec_invalid_bool',
  'codec_invalid_utf8',
  'codec_unsorted_map',
  'codec_invalid_value',
  'codec_invalid_json',
];

export interface LawOptions {
  numRuns: number;
  limits?: DecodeLimits;
  /** Skip law (f) for codecs without a JSON form (e.g. maps with non-text keys). */
  noJson?: boolean;
  /** The code law (c) expects; codec_truncated unless a codec says otherwise. */
  prefixCode?: CodecErrorCode;
}

/** Decodes and fails the test, showing the bytes, if decoding does not succeed. */
export function decodeOk<T>(codec: Codec<T>, bytes: Uint8Array, limits = DEFAULT_DECODE_LIMITS): T {
  const r = decode(codec, bytes, limits);
  if (!r.ok)
    assert.fail(`decode failed: ${r.error.code} (${r.error.message}) at ${r.error.at} in ${toHex(bytes)}`);
  return r.value;
}

/** Asserts a typed failure, optionally with a given code. */
export function assertRejected<T>(r: DecodeResult<T>, code?: CodecErrorCode, what = ''): CodecError {
  if (r.ok) assert.fail(`expected a rejection${code ? ` with ${code}` : ''} ${what}, got a value`);
  assert.ok(r.error instanceof CodecError, 'the error must be a CodecError');
  assert.ok(CODEC_ERROR_CODES.includes(r.error.code), `unknown code ${r.error.code}`);
  if (code !== undefined) assert.equal(r.error.code, code, `${r.error.message} ${what}`);
  return r.error;
}

/** Decodes without letting anything but a typed result escape, and times it. */
export function decodeTimed<T>(codec: Codec<T>, bytes: Uint8Array, limits: DecodeLimits): DecodeResult<T> {
  // A slow decode is timed again: a pause of the machine (GC, another process) slows one try, a decoder
  // that does too much work slows every try.
  let fastest = Number.POSITIVE_INFINITY;
  let r: DecodeResult<T> | undefined;
  for (let attempt = 0; attempt < RANDOM_INPUT_TRIES && fastest >= RANDOM_INPUT_MS_MAX; attempt++) {
    const started = performance.now();
    try {
      r = decode(codec, bytes, limits);
    } catch (e) {
      assert.fail(`decode threw ${String(e)} on ${toHex(bytes)}`);
    }
    fastest = Math.min(fastest, performance.now() - started);
  }
  timingBound({
    what: `decode of ${bytes.length} random bytes (fastest of ${RANDOM_INPUT_TRIES})`,
    value: fastest,
    max: RANDOM_INPUT_MS_MAX,
    quietWithin: true,
  });
  if (!r!.ok) assertRejected(r!);
  return r!;
}

function prefixLengths(n: number): number[] {
  if (n <= PREFIXES_ALL_BYTES_MAX) return Array.from({ length: n }, (_, i) => i);
  const out = new Set<number>([0, 1, n - 2, n - 1]);
  for (let i = 0; i < PREFIX_SAMPLES; i++) out.add(Math.floor((i * n) / PREFIX_SAMPLES));
  return [...out];
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** A few byte edits: (position as a fraction of the length, new byte). */
const edits = fc.array(fc.tuple(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.nat(255)), {
  minLength: 1,
  maxLength: 3,
});

interface LawContext<T> {
  codec: Codec<T>;
  arb: fc.Arbitrary<T>;
  limits: DecodeLimits;
  o: LawOptions;
}

function assertCanonical<T>(codec: Codec<T>, r: DecodeResult<T>, bytes: Uint8Array): void {
  if (r.ok) assert.equal(toHex(encode(codec, r.value)), toHex(bytes), 'accepted bytes are not canonical');
}

function roundTrip<T>({ codec, arb, limits }: LawContext<T>): fc.IPropertyWithHooks<[T]> {
  return fc.property(arb, (v) => {
    const bytes = encode(codec, v);
    const back = decodeOk(codec, bytes, limits);
    assert.deepStrictEqual(back, v);
    assert.equal(toHex(encode(codec, back)), toHex(bytes));
  });
}

function canonicalUnderMutation<T>({ codec, arb, limits }: LawContext<T>) {
  return fc.property(arb, edits, (v, changes) => {
    const bytes = encode(codec, v).slice();
    if (bytes.length === 0) return;
    for (const [at, byte] of changes) bytes[Math.floor(at * bytes.length)] = byte;
    assertCanonical(codec, decodeTimed(codec, bytes, limits), bytes);
  });
}

function prefixesRejected<T>({ codec, arb, limits, o }: LawContext<T>) {
  return fc.property(arb, (v) => {
    const bytes = encode(codec, v);
    for (const n of prefixLengths(bytes.length)) {
      const r = decode(codec, bytes.subarray(0, n), limits);
      assertRejected(r, o.prefixCode ?? 'codec_truncated', `(prefix ${n} of ${toHex(bytes)})`);
    }
  });
}

function trailingRejected<T>({ codec, arb, limits }: LawContext<T>) {
  return fc.property(arb, fc.uint8Array({ minLength: 1, maxLength: 8 }), (v, extra) => {
    assertRejected(decode(codec, concat(encode(codec, v), extra), limits), 'codec_trailing_bytes');
  });
}

function randomBytesTyped<T>({ codec, limits }: LawContext<T>) {
  return fc.property(fc.uint8Array({ maxLength: RANDOM_INPUT_BYTES_MAX }), (bytes) => {
    assertCanonical(codec, decodeTimed(codec, bytes, limits), bytes);
  });
}

function jsonRoundTrip<T>({ codec, arb }: LawContext<T>) {
  return fc.property(arb, (v) => {
    const j = codec.toJson(v);
    assert.deepStrictEqual(codec.fromJson(j, ''), v);
    const parsed: unknown = JSON.parse(JSON.stringify(j));
    assert.deepStrictEqual(parsed, j, 'toJson output does not survive JSON.stringify / JSON.parse');
    assert.deepStrictEqual(codec.fromJson(parsed, ''), v);
  });
}

/** Registers laws (a)–(f) as separate tests for one codec. */
export function lawTests<T>(codec: Codec<T>, arb: fc.Arbitrary<T>, o: LawOptions): void {
  const ctx: LawContext<T> = { codec, arb, limits: o.limits ?? DEFAULT_DECODE_LIMITS, o };
  const run = { numRuns: o.numRuns };
  it('(a) decode(encode(v)) equals v and re-encodes to the same bytes', () => fc.assert(roundTrip(ctx), run));
  it('(b) every accepted byte string is canonical, including mutated ones', () =>
    fc.assert(canonicalUnderMutation(ctx), run));
  it('(c) every strict prefix is rejected with a typed error', () => fc.assert(prefixesRejected(ctx), run));
  it('(d) extra bytes after a valid encoding give codec_trailing_bytes', () =>
    fc.assert(trailingRejected(ctx), run));
  it('(e) random bytes give a typed result quickly, never an exception', () =>
    fc.assert(randomBytesTyped(ctx), { numRuns: o.numRuns * 4 }));
  if (o.noJson !== true) {
    it('(f) fromJson(toJson(v)) equals v, also through JSON text', () => fc.assert(jsonRoundTrip(ctx), run));
  }
}

/** JSON values as the codec holds them: canonical JSON has no negative zero (it prints as 0). */
export function jsonValueArb(maxDepth = 2): fc.Arbitrary<Json> {
  return fc.jsonValue({ maxDepth }).map((v) => JSON.parse(JSON.stringify(v)) as Json);
}
