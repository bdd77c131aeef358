// The writer's always-on assertions: a value out of its encoding's range, or a write past the buffer,
// stops with AssertionError instead of being silently wrapped or dropped by the typed array.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AssertionError } from '../util/assert.js';
import type { Codec } from './codec.js';
import { map } from './compound.js';
import { encode, encodeFrame } from './frame.js';
import { u8 } from './primitives.js';
import type { SchemaRegistry } from './registry.js';
import { Writer } from './writer.js';

const fails = (f: () => void, message: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof AssertionError && message.test(e.message));

describe('Writer assertions', () => {
  it('fixed-width integers out of range', () => {
    fails(() => new Writer().u8(256), /u8 out of range/);
    fails(() => new Writer().u8(-1), /u8 out of range/);
    fails(() => new Writer().u16(0x10000), /u16 out of range/);
    fails(() => new Writer().u32(2 ** 32), /u32 out of range/);
    fails(() => new Writer().u32(1.5), /u32 out of range/);
    fails(() => new Writer().u64(-1n), /u64 out of range/);
    fails(() => new Writer().u64(1n << 64n), /u64 out of range/);
  });

  it('varuints: negative, fractional or above 2^53-1', () => {
    fails(() => new Writer().varuint(-1), /varuint out of range/);
    fails(() => new Writer().varuint(0.5), /varuint out of range/);
    fails(() => new Writer().varuint(2 ** 53), /varuint out of range/);
    fails(() => new Writer().bigVaruint(-1n), /negative varuint/);
  });

  it('the largest values still encode, in the bytes reserved for them', () => {
    const w = new Writer(1);
    w.varuint(Number.MAX_SAFE_INTEGER);
    w.u64((1n << 64n) - 1n);
    w.bigVaruint((1n << 128n) - 1n);
    assert.equal(w.finish().length, 8 + 8 + 19);
  });

  it('a writer of capacity 0 grows (it used to double 0 forever)', () => {
    const w = new Writer(0);
    w.u8(1);
    w.bytes(new Uint8Array(5));
    assert.deepEqual([...w.finish()], [1, 0, 0, 0, 0, 0]);
  });

  it('finish refuses a position past the buffer (a planted bad position)', () => {
    const w = new Writer(4);
    w.u8(1);
    w.pos = 9; // what a buggy fast path writing through `buf` directly could leave
    fails(() => w.finish(), /past capacity/);
  });

  it('the direct-write fast paths stop at the buffer end (a planted skipped reservation)', () => {
    const w = new Writer(1);
    w.ensure = () => {}; // planted: the reservation a fast path relies on does nothing
    fails(() => w.string('hello'), /string of 5 ran to 6 past 1/);
    const v = new Writer(1);
    v.ensure = () => {};
    fails(() => v.varuint(2 ** 40), /varuint ran to 6 past 1/);
  });

  it('a map whose distinct keys share one encoding is refused (a planted key codec)', () => {
    const oneByte = { ...u8, encode: (w: Writer) => w.u8(7) } as unknown as Codec<string>;
    const m = map(oneByte, u8);
    assert.deepEqual([...encode(m, new Map([['a', 1]]))], [1, 7, 1]);
    fails(
      () =>
        encode(
          m,
          new Map([
            ['a', 1],
            ['b', 2],
          ]),
        ),
      /two keys with one encoding/,
    );
  });

  it('a frame whose payload length cannot be its length field is refused (a planted codec)', () => {
    const rewinds = {
      ...u8,
      name: 'Planted',
      encode: (w: Writer) => {
        w.pos = 0;
      },
    };
    const registry = { schemaHash: () => new Uint8Array(32) } as unknown as SchemaRegistry;
    fails(
      () => encodeFrame(registry, rewinds as unknown as Codec<number>, 0),
      /does not fit its length field/,
    );
  });
});
