// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { BlockCodec } from '../model/block.js';
import { AccountCodec } from '../model/entities.js';
import { InstructionCodec } from '../model/instructions.js';
import { numeric } from '../model/numeric.js';
import type { AnyCodec } from './codec.js';
import { lazy, option, seq, struct } from './compound.js';
import { encode } from './frame.js';
import { jsonSchemaOf } from './json-schema.js';
import { u8 } from './primitives.js';

describe('JSON Schema of codec types', () => {
  it("computes a codec's schema once: the same frozen object on every call", () => {
    const first = jsonSchemaOf(BlockCodec);
    assert.equal(jsonSchemaOf(BlockCodec), first);
    assert.ok(Object.isFrozen(first));
    const nested = (first as { properties: Record<string, object> }).properties;
    assert.ok(Object.isFrozen(nested) && Object.values(nested).every((v) => Object.isFrozen(v)));
    assert.notEqual(jsonSchemaOf(AccountCodec), first);
  });

  it('a named type without cycles is one shared schema wherever it is held; a recursive one is cut, not shared', () => {
    const Inner = struct('SharingTestInner', { n: u8 });
    const Outer = struct('SharingTestOuter', { a: Inner, b: option(Inner), c: seq(Inner) });
    const outer = jsonSchemaOf(Outer) as { properties: Record<string, { items?: unknown }> };
    const inner = jsonSchemaOf(Inner);
    assert.equal(outer.properties.a, inner);
    assert.equal(outer.properties.b, inner, 'an option is its inner schema (the field is not required)');
    assert.equal(outer.properties.c!.items, inner);
    assert.deepEqual(JSON.parse(JSON.stringify(outer)), {
      title: 'SharingTestOuter',
      type: 'object',
      properties: {
        a: {
          title: 'SharingTestInner',
          type: 'object',
          properties: { n: { type: 'integer', minimum: 0, maximum: 255 } },
          required: ['n'],
          additionalProperties: false,
        },
        b: {
          title: 'SharingTestInner',
          type: 'object',
          properties: { n: { type: 'integer', minimum: 0, maximum: 255 } },
          required: ['n'],
          additionalProperties: false,
        },
        c: {
          type: 'array',
          items: {
            title: 'SharingTestInner',
            type: 'object',
            properties: { n: { type: 'integer', minimum: 0, maximum: 255 } },
            required: ['n'],
            additionalProperties: false,
          },
        },
      },
      required: ['a', 'c'],
      additionalProperties: false,
    });
    // A tree: its node holds its children, so its schema cuts the second visit with an open schema.
    const Tree: AnyCodec = lazy('SharingTestTree', () => struct('SharingTestTree', { kids: seq(Tree) }));
    const Forest = struct('SharingTestForest', { trees: seq(Tree), size: Inner });
    const forest = jsonSchemaOf(Forest) as { properties: Record<string, { items?: unknown }> };
    assert.equal(forest.properties.size, inner);
    assert.notEqual(forest.properties.trees!.items, jsonSchemaOf(Tree));
    assert.deepEqual(JSON.parse(JSON.stringify(forest.properties.trees)), {
      type: 'array',
      items: {
        title: 'SharingTestTree',
        type: 'object',
        properties: { kids: { type: 'array', items: { title: 'SharingTestTree' } } },
        required: ['kids'],
        additionalProperties: false,
      },
    });
  });

  it('describes structs, enums, options and text types', () => {
    const s = jsonSchemaOf(InstructionCodec) as {
      title: string;
      oneOf: { properties: Record<string, unknown>; required: string[] }[];
    };
    assert.equal(s.title, 'Instruction');
    const transfer = s.oneOf.find((v) => (v.properties.kind as { const: string }).const === 'TransferAsset')!;
    assert.deepEqual(transfer.required, ['kind', 'source', 'destination', 'amount']);
    assert.equal((transfer.properties.amount as { title: string }).title, 'Numeric');
  });

  it('produces schemas that a validator accepts inside an OpenAPI 3.1 document', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: { schemas: { Block: jsonSchemaOf(BlockCodec), Account: jsonSchemaOf(AccountCodec) } },
    };
    const v = new Validator();
    const r = await v.validate(doc);
    assert.equal(r.valid, true, JSON.stringify(r.errors));
  });

  it('matches the actual JSON form of a value (spot check with a hand-rolled check of required keys)', () => {
    const value = {
      kind: 'MintAsset' as const,
      asset: 'rose#w#ed0120' + 'A'.repeat(64) + '@w',
      amount: numeric('1.5'),
    };
    const json = InstructionCodec.toJson(value) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json).sort(), ['amount', 'asset', 'kind']);
    assert.equal(json.amount, '1.5');
    assert.ok(encode(InstructionCodec, value).length > 0);
  });
});
