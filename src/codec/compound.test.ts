// Compound codecs (docs/codec.md §4): option, sequence, map, struct, enum, recursive types; the
// limits of §6 (lengths checked before allocating, nesting depth).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { timingBound } from '../../test/helpers/timing-bound.js';
import { fromHex, toHex } from '../util/hex.js';
import type { Codec } from './codec.js';
import { enumOf, lazy, map, option, seq, struct } from './compound.js';
import { CodecError } from './errors.js';
import { decode, encode } from './frame.js';
import { assertRejected, decodeOk, decodeTimed, lawTests, RANDOM_INPUT_MS_MAX } from './laws.test.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from './limits.js';
import { bool, bytes, fixedBytes, string, u8, u16, u32, varuint } from './primitives.js';

const RUNS = 100;
const limits = DEFAULT_DECODE_LIMITS;
const strip = (s: string) => s.replace(/\s+/g, '');
const hex = (s: string) => fromHex(strip(s))!;
const text = fc.string({ unit: 'binary', maxLength: 4 }); // at most 16 UTF-8 bytes
const isJsonError = (e: unknown) => e instanceof CodecError && e.code === 'codec_invalid_json';

describe('option (§4.1)', () => {
  const o = option(u16);
  lawTests(o, fc.option(fc.nat(0xffff), { nil: undefined }), { numRuns: RUNS });

  it('is tag 0, or tag 1 then the value; any other tag is codec_invalid_tag', () => {
    assert.equal(toHex(encode(o, undefined)), '00');
    assert.equal(toHex(encode(o, 0x0102)), '010201');
    for (const tag of [2, 0x80, 0xff])
      assertRejected(decode(o, new Uint8Array([tag, 0, 0]), limits), 'codec_invalid_tag');
  });

  it('JSON: null or an absent value means absent', () => {
    assert.equal(o.toJson(undefined), null);
    assert.equal(o.fromJson(null, ''), undefined);
    assert.equal(o.fromJson(undefined, ''), undefined);
  });
});

describe('sequence (§4.2)', () => {
  const s = seq(string(16), 10);
  lawTests(s, fc.array(text, { maxLength: 10 }), { numRuns: RUNS });

  it('is a varint count then the items', () => {
    assert.equal(toHex(encode(s, [])), '00');
    assert.equal(toHex(encode(s, ['a', 'bc'])), strip('02 0161 026263'));
  });

  it('enforces the codec limit and the decoder limit (codec_length_limit)', () => {
    const eleven = encode(seq(string(16)), Array(11).fill('x'));
    assertRejected(decode(s, eleven, limits), 'codec_length_limit');
    const tight: DecodeLimits = { ...limits, itemsMax: 2 };
    assertRejected(decode(s, encode(s, ['a', 'b', 'c']), tight), 'codec_length_limit');
    assert.throws(() => s.fromJson(Array(11).fill('x'), '$.s'), isJsonError);
  });

  it('a count larger than the bytes left is refused before anything is read', () => {
    const keys = seq(fixedBytes(32));
    const tooFew = new Uint8Array(1 + 32 * 3);
    tooFew[0] = 4; // claims four 32-byte items, three present
    assert.equal(assertRejected(decode(keys, tooFew, limits), 'codec_truncated').at, 0);
    tooFew[0] = 3;
    assert.equal(decodeOk(keys, tooFew).length, 3);
  });
});

describe('length claims are checked before allocation (§6)', () => {
  const claim = encode(varuint, 2 ** 40);
  const unlimited: DecodeLimits = {
    bytesMax: Number.MAX_SAFE_INTEGER,
    itemsMax: Number.MAX_SAFE_INTEGER,
    depthMax: 32,
  };
  const cases: [string, Codec<unknown>][] = [
    ['seq(u8)', seq(u8)],
    ['seq(seq(u8))', seq(seq(u8))],
    ['map(u8, u8)', map(u8, u8)],
    ['bytes', bytes()],
    ['string', string()],
  ];

  for (const [name, codec] of cases) {
    it(`${name} claiming 2^40 items fails fast without allocating`, () => {
      const heapBefore = process.memoryUsage().heapUsed;
      const started = performance.now();
      assertRejected(decode(codec, claim, limits), 'codec_length_limit');
      const e = assertRejected(decode(codec, claim, unlimited), 'codec_truncated');
      const ms = performance.now() - started;
      const grown = process.memoryUsage().heapUsed - heapBefore;
      assert.equal(e.at, 0, 'reported at the length prefix');
      timingBound({ what: `${name} claiming 2^40 items, two decodes`, value: ms, max: RANDOM_INPUT_MS_MAX });
      assert.ok(grown < 4 * 1024 * 1024, `heap grew by ${grown} bytes`);
    });
  }
});

describe('map (§4.3)', () => {
  const m = map(string(16), u32, 8);
  const entries = fc.uniqueArray(fc.tuple(text, fc.nat(0xffffffff)), { selector: (e) => e[0], maxLength: 8 });
  describe('text keys', () =>
    lawTests(
      m,
      entries.map((e) => new Map(e)),
      { numRuns: RUNS },
    ));
  const numeric = map(varuint, bool);
  const numEntries = fc.uniqueArray(fc.tuple(fc.nat(100_000), fc.boolean()), {
    selector: (e) => e[0],
    maxLength: 8,
  });
  describe('varint keys', () =>
    lawTests(
      numeric,
      numEntries.map((e) => new Map(e)),
      { numRuns: RUNS, noJson: true },
    ));

  it('sorts by the encoded key bytes, length prefix included', () => {
    // "b" (01 62) sorts before "aa" (02 61 61): shorter strings come first.
    const texts = new Map([['aa', 1]]).set('b', 2);
    assert.equal(toHex(encode(m, texts)), strip('02 0162 02000000 026161 01000000'));
    // 256 (80 02) sorts before 129 (81 01): byte order, not numeric order.
    const numbers = new Map([[129, true]]).set(256, false);
    assert.equal(toHex(encode(numeric, numbers)), strip('02 8002 00 8101 01'));
  });

  it('rejects keys out of order and duplicate keys with codec_unsorted_map', () => {
    assertRejected(decode(m, hex('02 026161 01000000 0162 02000000'), limits), 'codec_unsorted_map');
    assertRejected(decode(m, hex('02 0161 01000000 0161 02000000'), limits), 'codec_unsorted_map');
    assertRejected(decode(numeric, hex('02 8101 01 8002 00'), limits), 'codec_unsorted_map');
    assert.equal(decodeOk(numeric, hex('02 8002 00 8101 01')).get(129), true);
  });

  it('JSON: an object; "__proto__" is an ordinary key', () => {
    const v = new Map([
      ['__proto__', 1],
      ['constructor', 2],
    ]);
    const j = m.toJson(v);
    assert.equal(JSON.stringify(j), '{"__proto__":1,"constructor":2}');
    assert.deepEqual(m.fromJson(JSON.parse(JSON.stringify(j)), ''), v);
  });

  it('JSON: the entry limit and the value types are checked', () => {
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i]));
    assert.throws(() => m.fromJson(nine, '$.m'), isJsonError);
    assert.throws(() => m.fromJson({ a: 'x' }, '$.m'), /\$\.m\.a/);
    assert.throws(() => m.fromJson([], '$.m'), isJsonError);
  });
});

// ---- structs and enums -------------------------------------------------------------------------

const Point = struct('Point', { x: varuint, label: option(string(32)), tags: seq(string(8), 4) });
const Shape = enumOf('Shape', {
  Empty: {},
  Dot: { at: Point },
  Line: { from: Point, to: Point, dashed: bool },
});

const pointArb = fc.record(
  { x: fc.maxSafeNat(), label: text, tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }) },
  { requiredKeys: ['x', 'tags'], noNullPrototype: true },
);
const shapeArb = fc.oneof(
  fc.constant({ kind: 'Empty' as const }),
  pointArb.map((at) => ({ kind: 'Dot' as const, at })),
  fc
    .tuple(pointArb, pointArb, fc.boolean())
    .map(([from, to, dashed]) => ({ kind: 'Line' as const, from, to, dashed })),
);

describe('struct (§4.4)', () => {
  lawTests(Point, pointArb, { numRuns: RUNS });

  it('is the fields in declared order, no names or tags', () => {
    assert.equal(toHex(encode(Point, { x: 300, tags: ['t'] })), strip('ac02 00 01 0174'));
    assert.equal(toHex(encode(Point, { x: 1, label: 'L', tags: [] })), strip('01 01 014c 00'));
  });

  it('JSON: snake_case names, absent options omitted, unknown and missing fields refused', () => {
    const Snake = struct('Snake', { creationTimeMs: varuint, ttlMs: option(varuint) });
    assert.deepEqual(Snake.toJson({ creationTimeMs: 5 }), { creation_time_ms: 5 });
    assert.deepEqual(Snake.fromJson({ creation_time_ms: 5, ttl_ms: null }, ''), { creationTimeMs: 5 });
    assert.throws(
      () => Snake.fromJson({ creation_time_ms: 5, extra: 1 }, '$.t'),
      /\$\.t\.extra: expected no such field/,
    );
    assert.throws(() => Snake.fromJson({ ttl_ms: 1 }, '$.t'), /\$\.t\.creation_time_ms/);
    assert.throws(() => Snake.fromJson({ creationTimeMs: 5 }, '$.t'), isJsonError);
    assert.throws(
      () => Snake.fromJson({ creation_time_ms: 5, kind: 'Snake' }, '$.t'),
      /\$\.t\.kind: expected no such field/,
    );
  });
});

describe('enum (§4.5)', () => {
  lawTests(Shape, shapeArb, { numRuns: RUNS });

  it('is the variant index as a varint, then the fields', () => {
    assert.equal(toHex(encode(Shape, { kind: 'Empty' })), '00');
    assert.equal(toHex(encode(Shape, { kind: 'Dot', at: { x: 2, tags: [] } })), strip('01 02 00 00'));
  });

  it('an unknown variant index is codec_invalid_tag', () => {
    assertRejected(decode(Shape, hex('03'), limits), 'codec_invalid_tag');
    assertRejected(decode(Shape, hex('8001'), limits), 'codec_invalid_tag');
    assertRejected(decode(Shape, hex('8000'), limits), 'codec_overlong_varint');
  });

  it('indices past 127 take two bytes', () => {
    const variants = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`V${i}`, {}]));
    const Big = enumOf('Big', variants);
    assert.equal(toHex(encode(Big, { kind: 'V129' } as never)), '8101');
    assert.deepEqual(decodeOk(Big, hex('8101')), { kind: 'V129' });
  });

  it('JSON: { kind, ...fields }; an unknown kind is refused', () => {
    assert.deepEqual(Shape.toJson({ kind: 'Dot', at: { x: 2, tags: [] } }), {
      kind: 'Dot',
      at: { x: 2, tags: [] },
    });
    assert.throws(
      () => Shape.fromJson({ kind: 'Circle' }, '$.s'),
      /\$\.s\.kind: expected one of Empty, Dot, Line/,
    );
    assert.throws(() => Shape.fromJson('Dot', '$.s'), isJsonError);
    assert.throws(
      () => encode(Shape, { kind: 'Circle' } as never),
      (e) => e instanceof CodecError,
    );
  });
});

// ---- recursion and the depth limit (§6) ---------------------------------------------------------

interface Tree {
  value: number;
  children: Tree[];
}
const TreeRef: Codec<Tree> = lazy('Tree', () => TreeNode);
const TreeNode: Codec<Tree> = struct('TreeNode', { value: u8, children: seq(TreeRef, 8) });
const treeArb = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.record(
    {
      value: fc.nat(255),
      children: fc.oneof(
        { maxDepth: 6, depthIdentifier: 'tree' },
        fc.constant<Tree[]>([]),
        fc.array(tie('tree'), { maxLength: 3, depthIdentifier: 'tree' }),
      ),
    },
    { noNullPrototype: true },
  ),
})).tree;

function chain(levels: number): Tree {
  let t: Tree = { value: 0, children: [] };
  for (let i = 1; i < levels; i++) t = { value: i % 256, children: [t] };
  return t;
}

function nestedOption(levels: number): Codec<unknown> {
  let c: Codec<unknown> = u8;
  for (let i = 0; i < levels; i++) c = option(c);
  return c;
}

describe('recursive types and the depth limit (§6)', () => {
  lawTests(TreeRef, treeArb, { numRuns: RUNS });

  it('each struct, enum, present option, sequence and map counts one level', () => {
    assert.equal(limits.depthMax, 32);
    // 32 nested present options around a u8: exactly at the limit.
    const ok = nestedOption(32);
    assert.equal(decodeOk(ok, encode(ok, 7)), 7);
    const deep = nestedOption(33);
    assertRejected(decode(deep, encode(deep, 7), limits), 'codec_depth_limit');
    // Absent options do not nest.
    assert.equal(decodeOk(deep, hex('00')), undefined);
  });

  it('a deeply nested tree is refused with codec_depth_limit, quickly', () => {
    // A tree level is a struct plus a sequence: two levels of nesting each.
    assert.deepEqual(decodeOk(TreeRef, encode(TreeRef, chain(16))), chain(16));
    assertRejected(decodeTimed(TreeRef, encode(TreeRef, chain(17)), limits), 'codec_depth_limit');
    assertRejected(decodeTimed(TreeRef, encode(TreeRef, chain(1000)), limits), 'codec_depth_limit');
    const shallow: DecodeLimits = { ...limits, depthMax: 4 };
    assertRejected(decode(TreeRef, encode(TreeRef, chain(3)), shallow), 'codec_depth_limit');
  });
});
