// The schema registry and the schema hash (docs/codec.md §5, §1.5).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toHex } from '../util/hex.js';
import type { Codec } from './codec.js';
import { enumOf, lazy, map, option, seq, struct } from './compound.js';
import { canonicalJson } from './json.js';
import { bool, fixedBytes, string, u8, varuint } from './primitives.js';
import { SchemaRegistry } from './registry.js';
import { textType } from './text.js';

/** FNV-1a 64 as §1.5 states it, written independently of registry.ts; the 8 bytes little-endian. */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const b of new TextEncoder().encode(text))
    h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  let out = '';
  for (let i = 0n; i < 8n; i++) out += ((h >> (8n * i)) & 0xffn).toString(16).padStart(2, '0');
  return out;
}

const Id = textType<string>({
  name: 'Id',
  base: string(16),
  format: 'lower-case letters',
  parse: (t) => t,
  print: (t) => t,
});
const Inner = struct('Inner', { id: Id, flag: bool });
const Outer = enumOf('Outer', {
  Empty: {},
  Full: { inner: Inner, more: option(seq(Inner)), tags: map(Id, u8) },
});

describe('schema registry (§5)', () => {
  it('FNV-1a 64 matches its published vectors', () => {
    assert.equal(fnv1a64(''), '25232284e49cf2cb'); // 0xcbf29ce484222325, little-endian
    assert.equal(fnv1a64('a'), '8cec01864cdc63af'); // 0xaf63dc4c8601ec8c
  });

  it('registers every named type reachable from a root, however deeply nested', () => {
    const r = new SchemaRegistry(1);
    r.register(Outer);
    assert.deepEqual(Object.keys(r.snapshot().types), ['Id', 'Inner', 'Outer']);
    assert.deepEqual(r.snapshot().types['Inner'], {
      kind: 'struct',
      fields: [
        { name: 'id', type: 'Id' },
        { name: 'flag', type: { kind: 'bool' } },
      ],
    });
    assert.deepEqual(r.snapshot().types['Id'], {
      kind: 'text',
      base: { kind: 'string' },
      format: 'lower-case letters',
    });
    const full = (r.snapshot().types['Outer'] as { variants: unknown[] }).variants[1];
    assert.deepEqual(full, {
      tag: 1,
      name: 'Full',
      fields: [
        { name: 'inner', type: 'Inner' },
        { name: 'more', type: { kind: 'option', of: { kind: 'seq', of: 'Inner' } } },
        { name: 'tags', type: { kind: 'map', key: 'Id', value: { kind: 'u8' } } },
      ],
    });
  });

  it('the schema hash is FNV-1a 64 of the canonical JSON of { version, root, types: closure }', () => {
    const r = new SchemaRegistry(1);
    r.register(Outer);
    const closure = r.closure('Inner');
    assert.deepEqual(Object.keys(closure), ['Id', 'Inner']);
    const text = canonicalJson({ version: 1, root: 'Inner', types: closure } as never);
    assert.equal(toHex(r.schemaHash('Inner')), fnv1a64(text));
    assert.ok(text.startsWith('{"root":"Inner","types":{"Id":{"base":{"kind":"string"}'), text);
  });

  it('changes when the type, a nested type, the root name or the version changes', () => {
    const hashOf = (root: Codec<unknown>, name: string, version = 1) => {
      const r = new SchemaRegistry(version);
      r.register(root);
      return toHex(r.schemaHash(name));
    };
    const base = hashOf(Outer as never, 'Outer');
    const Inner2 = struct('Inner', { id: Id, flag: bool, extra: option(u8) });
    const Outer2 = enumOf('Outer', {
      Empty: {},
      Full: { inner: Inner2, more: option(seq(Inner2)), tags: map(Id, u8) },
    });
    assert.notEqual(hashOf(Outer2 as never, 'Outer'), base, 'nested field added');
    const Reordered = enumOf('Outer', {
      Full: { inner: Inner, more: option(seq(Inner)), tags: map(Id, u8) },
      Empty: {},
    });
    assert.notEqual(hashOf(Reordered as never, 'Outer'), base, 'variants reordered');
    assert.notEqual(hashOf(Outer as never, 'Outer', 2), base, 'codec version');
    assert.equal(hashOf(Outer as never, 'Outer'), base, 'stable');
    // Only the closure counts: types that Inner does not reach leave its hash alone.
    assert.equal(hashOf(Outer2 as never, 'Id'), hashOf(Outer as never, 'Id'));
  });

  it('handles recursive types', () => {
    const Ref: Codec<unknown> = lazy('Node', () => Node);
    const Node: Codec<unknown> = struct('NodeBody', { children: seq(Ref), key: fixedBytes(4), n: varuint });
    const r = new SchemaRegistry(1);
    r.register(Ref);
    // A lazy codec is described under its own name by its target's description.
    assert.deepEqual(Object.keys(r.snapshot().types), ['Node']);
    assert.deepEqual(r.snapshot().types['Node'], {
      kind: 'struct',
      fields: [
        { name: 'children', type: { kind: 'seq', of: 'Node' } },
        { name: 'key', type: { kind: 'fixed_bytes', length: 4 } },
        { name: 'n', type: { kind: 'varuint' } },
      ],
    });
    assert.equal(r.schemaHash('Node').length, 8);
  });

  it('refuses to register an unnamed codec', () => {
    assert.throws(() => new SchemaRegistry(1).register(seq(u8)), /named/);
  });
});
