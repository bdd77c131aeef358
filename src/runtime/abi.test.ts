// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enumOf } from '../codec/compound.js';
import { decode, encode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { string, varuint } from '../codec/primitives.js';
import { hash } from '../crypto/hash.js';
import { InstructionCodec } from '../model/instructions.js';
import { IterableQueryCodec, SingularQueryCodec } from '../model/queries.js';
import { toHex } from '../util/hex.js';
import { AbiDescriptorCodec, abiDescriptor, abiEntries, abiHashHex, abiPolicy } from './abi.js';

const kinds = (c: { describe: typeof InstructionCodec.describe }) => {
  const d = c.describe((x) => x.name ?? 'inline');
  return d.kind === 'enum' ? d.variants.map((v) => v.name) : [];
};

describe('runtime ABI descriptor', () => {
  it('lists every instruction and query kind in tag order, with distinct 32-byte schema hashes', () => {
    const d = abiDescriptor(1);
    assert.equal(d.policy, 'V1');
    assert.deepEqual(
      d.instructions.map((e) => e.name),
      kinds(InstructionCodec),
    );
    assert.deepEqual(
      d.singularQueries.map((e) => e.name),
      kinds(SingularQueryCodec),
    );
    assert.deepEqual(
      d.iterableQueries.map((e) => e.name),
      kinds(IterableQueryCodec),
    );
    assert.deepEqual(
      d.instructions.map((e) => e.tag),
      d.instructions.map((_, i) => i),
    );
    const all = [...d.instructions, ...d.singularQueries, ...d.iterableQueries].map((e) => e.schemaHash);
    for (const h of all) assert.match(h, /^[0-9a-f]{64}$/);
    assert.equal(new Set(all).size, all.length, 'every kind has its own schema hash');
    assert.ok(d.instructions.some((e) => e.name === 'ActivateRuntimeUpgrade'));
  });

  it('hashes the canonical encoding, and the hash follows the policy version', () => {
    const d = abiDescriptor(1);
    const bytes = encode(AbiDescriptorCodec, d);
    assert.equal(abiHashHex(d), toHex(hash(bytes)));
    const back = decode(AbiDescriptorCodec, bytes, DEFAULT_DECODE_LIMITS);
    assert.ok(back.ok);
    assert.deepEqual(back.value, d);
    assert.equal(abiHashHex(abiDescriptor(1)), abiHashHex(d), 'deterministic');
    assert.notEqual(abiHashHex(abiDescriptor(2)), abiHashHex(d));
    assert.equal(abiPolicy(7), 'V7');
  });

  it('a changed field type changes that variant hash only', () => {
    const a = abiEntries(enumOf('AbiProbe', { One: { x: varuint }, Two: { y: string(8) } }));
    const b = abiEntries(enumOf('AbiProbe', { One: { x: string(8) }, Two: { y: string(8) } }));
    assert.notEqual(a[0]!.schemaHash, b[0]!.schemaHash);
    assert.equal(a[1]!.schemaHash, b[1]!.schemaHash);
    const renamed = abiEntries(enumOf('AbiProbe', { Uno: { x: varuint }, Two: { y: string(8) } }));
    assert.notEqual(renamed[0]!.schemaHash, a[0]!.schemaHash, 'the kind name is covered');
  });
});
