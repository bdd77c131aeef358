// The field functions written per struct and enum variant (compound.ts `fieldFunctions`) against the
// shared loops they replace (`genericFieldFunctions`): over random field lists and random values, the same
// bytes; over their encodings and over random and mutated bytes, the same values (same keys in the same
// order, absent optional fields left out) or the same error code at the same position.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { AnyCodec } from './codec.js';
import { type FieldFunctions, fieldFunctions, genericFieldFunctions, option, plan, seq } from './compound.js';
import { CodecError } from './errors.js';
import { DEFAULT_DECODE_LIMITS } from './limits.js';
import { bytes, string, u8, u16, varuint } from './primitives.js';
import { Reader } from './reader.js';
import { Writer } from './writer.js';

/** Field kinds and a value generator for each. */
const KINDS: Record<string, { codec: AnyCodec; arb: fc.Arbitrary<unknown> }> = {
  u8: { codec: u8, arb: fc.nat(0xff) },
  varuint: { codec: varuint, arb: fc.nat() },
  string: { codec: string(16), arb: fc.string({ maxLength: 4 }) },
  bytes: { codec: bytes(8), arb: fc.uint8Array({ maxLength: 8 }) },
  optU16: { codec: option(u16), arb: fc.option(fc.nat(0xffff), { nil: undefined }) },
  optString: { codec: option(string(16)), arb: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }) },
  seqU8: { codec: seq(u8, 4), arb: fc.array(fc.nat(0xff), { maxLength: 4 }) },
};

const shapeArb = fc.array(fc.constantFrom(...Object.keys(KINDS)), { minLength: 0, maxLength: 7 });

function fieldsOf(shape: string[]): Record<string, AnyCodec> {
  return Object.fromEntries(shape.map((k, i) => [`f${i}${k}`, KINDS[k]!.codec]));
}

function valueArb(shape: string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(...shape.map((k) => KINDS[k]!.arb)).map((xs) => {
    const v: Record<string, unknown> = {};
    xs.forEach((x, i) => {
      if (x !== undefined) v[`f${i}${shape[i]}`] = x;
    });
    return v;
  });
}

function encodeWith(f: FieldFunctions, v: Record<string, unknown>): Uint8Array {
  const w = new Writer(4);
  f.encode(w, v);
  return w.finish();
}

/** The decoded value with its keys in order and the end position, or the error's code and position. */
function decodeWith(f: FieldFunctions, b: Uint8Array): unknown {
  const r = new Reader(b, DEFAULT_DECODE_LIMITS);
  try {
    const v = f.decode(r);
    return { ok: true, keys: Object.keys(v), value: v, pos: r.pos };
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return { ok: false, code: e.code, at: e.at };
  }
}

const pair = (shape: string[], kind: string | undefined) => {
  const fs = plan(fieldsOf(shape));
  return { fast: fieldFunctions(fs, kind), general: genericFieldFunctions(fs, kind) };
};

describe('struct and variant field functions (compound.ts) agree with the general loops', () => {
  it('encode every random value to the same bytes and decode them to the same value', () => {
    fc.assert(
      fc.property(
        shapeArb.chain((shape) => fc.tuple(fc.constant(shape), valueArb(shape), fc.boolean())),
        ([shape, v, variant]) => {
          const { fast, general } = pair(shape, variant ? 'Variant' : undefined);
          const bytes = encodeWith(general, v);
          assert.deepEqual(encodeWith(fast, v), bytes);
          const decoded = decodeWith(fast, bytes);
          assert.deepEqual(decoded, decodeWith(general, bytes));
          const expected = variant ? { kind: 'Variant', ...v } : v;
          assert.deepEqual((decoded as { value: unknown }).value, expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('give the same value or the same error code and position for random and mutated bytes', () => {
    fc.assert(
      fc.property(
        shapeArb.chain((shape) =>
          fc.tuple(
            fc.constant(shape),
            valueArb(shape),
            fc.uint8Array({ maxLength: 24 }),
            fc.nat(),
            fc.nat(0xff),
          ),
        ),
        ([shape, v, random, at, byte]) => {
          const { fast, general } = pair(shape, undefined);
          assert.deepEqual(decodeWith(fast, random), decodeWith(general, random));
          const mutated = encodeWith(general, v).slice();
          if (mutated.length > 0) mutated[at % mutated.length] = byte;
          assert.deepEqual(decodeWith(fast, mutated), decodeWith(general, mutated));
          // Every strict prefix is rejected alike.
          const cut = mutated.subarray(0, mutated.length === 0 ? 0 : at % mutated.length);
          assert.deepEqual(decodeWith(fast, cut), decodeWith(general, cut));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leave absent optional fields out, keep declared key order, and start variants with kind', () => {
    const { fast } = pair(['u8', 'optU16', 'varuint', 'optString'], 'V');
    const v = { f0u8: 1, f2varuint: 300 };
    const decoded = fast.decode(new Reader(encodeWith(fast, v), DEFAULT_DECODE_LIMITS));
    assert.deepEqual(Object.keys(decoded), ['kind', 'f0u8', 'f2varuint']);
    const full = { f0u8: 1, f1optU16: 2, f2varuint: 3, f3optString: 'x' };
    const again = fast.decode(new Reader(encodeWith(fast, full), DEFAULT_DECODE_LIMITS));
    assert.deepEqual(Object.keys(again), ['kind', 'f0u8', 'f1optU16', 'f2varuint', 'f3optString']);
  });

  it('keep the loops for names an object literal would read differently', () => {
    for (const name of ['__proto__', '0', 'kind', 'a-b']) {
      const fs = plan({ [name]: u8, other: u8 });
      const r = new Reader(new Uint8Array([7, 9]), DEFAULT_DECODE_LIMITS);
      const out = fieldFunctions(fs, undefined).decode(r);
      const ref = genericFieldFunctions(fs, undefined).decode(
        new Reader(new Uint8Array([7, 9]), DEFAULT_DECODE_LIMITS),
      );
      assert.deepEqual(Object.keys(out), Object.keys(ref));
      assert.equal(Object.getPrototypeOf(out), Object.getPrototypeOf(ref));
    }
  });
  it('fall back to the loops where code may not be compiled (a CSP without unsafe-eval)', () => {
    const saved = globalThis.Function;
    const refused = function refused() {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed");
    } as unknown as FunctionConstructor;
    globalThis.Function = refused;
    let built: FieldFunctions;
    try {
      built = fieldFunctions(plan(fieldsOf(['u8', 'optU16', 'string'])), 'V');
    } finally {
      globalThis.Function = saved;
    }
    const v = { f0u8: 5, f2string: 'ok' };
    const { general } = pair(['u8', 'optU16', 'string'], 'V');
    assert.deepEqual(encodeWith(built, v), encodeWith(general, v));
    assert.deepEqual(decodeWith(built, encodeWith(built, v)), decodeWith(general, encodeWith(general, v)));
  });
});
