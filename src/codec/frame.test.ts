// Frames and the bare form (docs/codec.md §1), CRC-32C, and the schema hash (§5).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { toHex } from '../util/hex.js';
import { enumOf, option, seq, struct } from './compound.js';
import { crc32c } from './crc32c.js';
import {
  CODEC_VERSION,
  decodeFrame,
  encode,
  encodeFrame,
  FRAME_HEADER_BYTES,
  FRAME_MAGIC,
  unframe,
} from './frame.js';
import { assertRejected } from './laws.test.js';
import { DEFAULT_DECODE_LIMITS } from './limits.js';
import { string, u32, varuint } from './primitives.js';
import { SchemaRegistry } from './registry.js';

const limits = DEFAULT_DECODE_LIMITS;
const A = struct('A', { x: varuint, note: option(string(64)) });
const B = struct('B', { x: varuint, note: option(string(64)) });
const Wrapper = enumOf('Wrapper', { One: { a: A }, Many: { all: seq(A) } });

function registry(): SchemaRegistry {
  const r = new SchemaRegistry(CODEC_VERSION);
  r.register(Wrapper);
  r.register(B);
  return r;
}

const reg = registry();
const value = { x: 300, note: 'hi' };
const frame = () => encodeFrame(reg, A, value).slice();

describe('CRC-32C (§1.6)', () => {
  it('has the check value 0xE3069283 for "123456789"', () => {
    assert.equal(crc32c(new TextEncoder().encode('123456789')), 0xe3069283);
    assert.equal(crc32c(new Uint8Array(0)), 0); // more vectors in crc32c.test.ts
  });

  it('continues across chunks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.uint8Array({ maxLength: 64 }), (a, b) => {
        const ab = new Uint8Array([...a, ...b]);
        assert.equal(crc32c(b, crc32c(a)), crc32c(ab));
      }),
      { numRuns: 100 },
    );
  });
});

describe('frame layout (§1.1)', () => {
  it('is magic, version, flags, schema hash, payload length, CRC-32C, then the payload', () => {
    const f = frame();
    const payload = encode(A, value);
    assert.equal(f.length, FRAME_HEADER_BYTES + payload.length);
    assert.equal(toHex(f.subarray(0, 4)), toHex(FRAME_MAGIC));
    assert.equal(new TextDecoder().decode(f.subarray(0, 4)), 'TRNC');
    assert.equal(f[4], 1);
    assert.equal(f[5], 0);
    assert.equal(toHex(f.subarray(6, 14)), toHex(reg.schemaHash('A')));
    const view = new DataView(f.buffer, f.byteOffset);
    assert.equal(view.getUint32(14, true), payload.length);
    assert.equal(view.getUint32(18, true), crc32c(payload));
    assert.equal(toHex(f.subarray(22)), toHex(payload));
  });

  it('round-trips through decodeFrame', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.option(fc.string({ maxLength: 16 }), { nil: undefined }), (x, note) => {
        const v = note === undefined ? { x } : { x, note };
        const r = decodeFrame(reg, A, encodeFrame(reg, A, v), limits);
        assert.ok(r.ok);
        assert.deepStrictEqual(r.value, v);
      }),
      { numRuns: 50 },
    );
  });

  it('names only registered types', () => {
    assert.throws(() => encodeFrame(reg, option(u32) as never, 1 as never), /named/);
    assert.throws(() => reg.schemaHash('Nope'), /unregistered/);
  });
});

describe('frame rejections (§1.7)', () => {
  it('bad magic', () => {
    for (const at of [1, 2, 3]) {
      const f = frame();
      f[at]! ^= 0x20;
      const e = assertRejected(decodeFrame(reg, A, f, limits), 'codec_bad_magic');
      assert.equal(e.at, 0);
    }
    assertRejected(decodeFrame(reg, A, new TextEncoder().encode('TRX'), limits), 'codec_bad_magic');
  });

  it('an unsupported frame version (2)', () => {
    const f = frame();
    f[4] = 2;
    assert.equal(assertRejected(decodeFrame(reg, A, f, limits), 'codec_unsupported_version').at, 4);
    f[4] = 0;
    assertRejected(decodeFrame(reg, A, f, limits), 'codec_unsupported_version');
  });

  it('each flag bit (none are defined)', () => {
    for (let bit = 0; bit < 8; bit++) {
      const f = frame();
      f[5] = 1 << bit;
      assert.equal(assertRejected(decodeFrame(reg, A, f, limits), 'codec_unknown_flags').at, 5);
    }
  });

  it('a frame of type A read as type B (schema hash mismatch)', () => {
    assert.notEqual(toHex(reg.schemaHash('A')), toHex(reg.schemaHash('B')), 'same shape, different names');
    assert.equal(assertRejected(decodeFrame(reg, B, frame(), limits), 'codec_schema_mismatch').at, 6);
    const f = frame();
    f[13]! ^= 1;
    assertRejected(decodeFrame(reg, A, f, limits), 'codec_schema_mismatch');
  });

  it('a payload length that disagrees with the bytes present, both ways', () => {
    const f = frame();
    const view = new DataView(f.buffer, f.byteOffset);
    const n = view.getUint32(14, true);
    view.setUint32(14, n + 1, true);
    assertRejected(decodeFrame(reg, A, f, limits), 'codec_truncated');
    view.setUint32(14, n - 1, true);
    assertRejected(decodeFrame(reg, A, f, limits), 'codec_trailing_bytes');
    view.setUint32(14, 0xffffffff, true);
    assertRejected(decodeFrame(reg, A, f, limits), 'codec_truncated');
    assertRejected(decodeFrame(reg, A, f.subarray(0, f.length - 1), limits), 'codec_truncated');
  });

  it('a checksum or payload bit flip', () => {
    for (let i = 18; i < frame().length; i++) {
      for (const bit of [0x01, 0x80]) {
        const f = frame();
        f[i]! ^= bit;
        assertRejected(decodeFrame(reg, A, f, limits), 'codec_checksum_mismatch', `byte ${i}`);
      }
    }
  });

  it('a header cut short', () => {
    const f = frame();
    for (let n = 1; n < FRAME_HEADER_BYTES; n++) {
      assertRejected(decodeFrame(reg, A, f.subarray(0, n), limits), 'codec_truncated', `${n} bytes`);
    }
    assertRejected(decodeFrame(reg, A, new Uint8Array(0), limits), 'codec_truncated');
  });

  it('a valid frame whose payload does not decode reports the payload error', () => {
    const payload = new Uint8Array([0x80, 0x00, 0x00]); // overlong varint
    const f = new Uint8Array(FRAME_HEADER_BYTES + payload.length);
    f.set(frame().subarray(0, 14));
    const view = new DataView(f.buffer);
    view.setUint32(14, payload.length, true);
    view.setUint32(18, crc32c(payload), true);
    f.set(payload, FRAME_HEADER_BYTES);
    assertRejected(decodeFrame(reg, A, f, limits), 'codec_overlong_varint');
  });
});

describe('bare form (§1.4)', () => {
  const bare = (payload: Uint8Array) => new Uint8Array([CODEC_VERSION, ...payload]);

  it('a version byte then the payload is accepted, with no hash or checksum', () => {
    const r = decodeFrame(reg, A, bare(encode(A, value)), limits);
    assert.ok(r.ok);
    assert.deepStrictEqual(r.value, value);
    // The same bytes are accepted as B: the bare form carries no schema hash.
    assert.ok(decodeFrame(reg, B, bare(encode(A, value)), limits).ok);
  });

  it('the bare payload is checked like any other', () => {
    assertRejected(decodeFrame(reg, A, bare(new Uint8Array(0)), limits), 'codec_truncated');
    assertRejected(
      decodeFrame(reg, A, bare(new Uint8Array([...encode(A, value), 0])), limits),
      'codec_trailing_bytes',
    );
  });

  it('any first byte other than 1 or "T" is an unsupported version', () => {
    for (const first of [0, 2, 0x53, 0x55, 0xff]) {
      for (const length of [1, 5, 40]) {
        const body = new Uint8Array(length);
        body[0] = first;
        const e = assertRejected(
          decodeFrame(reg, A, body, limits),
          'codec_unsupported_version',
          `${first}/${length}`,
        );
        assert.equal(e.at, 0);
      }
    }
  });

  it('unframe exposes the payload without decoding it', () => {
    const u = unframe(reg, 'A', frame());
    assert.ok(u.ok);
    assert.equal(toHex(u.payload), toHex(encode(A, value)));
  });
});

describe('random bodies never escape as exceptions', () => {
  it('decodeFrame answers every input with a value or a typed error', () => {
    const header = frame().subarray(0, 6);
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.uint8Array({ maxLength: 64 }).map((t) => new Uint8Array([...header, ...t])),
      fc.uint8Array({ maxLength: 64 }).map((t) => new Uint8Array([CODEC_VERSION, ...t])),
    );
    fc.assert(
      fc.property(body, (b) => {
        const r = decodeFrame(reg, A, b, limits);
        if (!r.ok) assertRejected(r);
      }),
      { numRuns: 500 },
    );
  });
});
