import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enumOf } from './compound.js';
import { decode, encode } from './frame.js';
import { DEFAULT_DECODE_LIMITS } from './limits.js';
import { openEnum } from './open-enum.js';
import { u8, varuint } from './primitives.js';

const TAGS = ['A', 'B', 'C'] as const;
type V = { kind: 'A'; x: number } | { kind: 'B' } | { kind: 'C'; y: number };

describe('open enum (variants declared in several places)', () => {
  it('encodes, decodes and describes exactly as one enumOf over the whole tag list', () => {
    const open = openEnum<V>('Letters', TAGS, { A: { x: u8 } }, 'declare B and C');
    open.declare({ C: { y: varuint } }); // declared out of tag order on purpose
    open.declare({ B: {} });
    const closed = enumOf('Letters', { A: { x: u8 }, B: {}, C: { y: varuint } });
    for (const v of [{ kind: 'A', x: 7 }, { kind: 'B' }, { kind: 'C', y: 300 }] as V[]) {
      const bytes = encode(open, v);
      assert.deepEqual(bytes, encode(closed, v as never));
      assert.deepEqual(
        decode(open, bytes, DEFAULT_DECODE_LIMITS),
        decode(closed, bytes, DEFAULT_DECODE_LIMITS),
      );
      assert.deepEqual(open.toJson(v), closed.toJson(v as never));
    }
    assert.deepEqual(
      open.describe(() => 'ref'),
      closed.describe(() => 'ref'),
    );
  });

  it('a use before every tag has its fields throws, naming the missing variants', () => {
    const open = openEnum<V>('Letters', TAGS, { A: { x: u8 } }, 'declare B and C');
    assert.deepEqual(open.missing(), ['B', 'C']);
    assert.throws(() => encode(open, { kind: 'A', x: 1 }), /Letters: no fields for B, C \(declare B and C\)/);
  });

  it('refuses a variant without a tag, one declared twice, and declarations after first use', () => {
    const open = openEnum<V>('Letters', TAGS, { A: { x: u8 } }, '');
    assert.throws(() => open.declare({ D: {} }), /D has no tag/);
    assert.throws(() => open.declare({ A: {} }), /A is declared twice/);
    open.declare({ B: {}, C: { y: varuint } });
    encode(open, { kind: 'B' });
    assert.throws(() => open.declare({}), /declared after first use/);
  });
});
