// Golden vectors (docs/codec.md §9.3): encoded model values kept in testdata/golden.json, so that any change
// to the wire form, the JSON form or a schema hash shows up as a failing test and a reviewable diff.
//
// Regenerate, after an intended wire change, with
//   UPDATE_GOLDEN=1 node --import tsx --test src/model/golden.test.ts
// which draws fresh values from the seeded generator, re-encodes them and formats the file.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { AnyCodec, Json } from '../codec/codec.js';
import { encode } from '../codec/frame.js';
import { decodeOk } from '../codec/laws.test.js';
import { BlsKeyPair, blsProvePossession, blsVerifyPossession } from '../crypto/bls.js';
import { publicKeyToText } from '../crypto/keys.js';
import { fromHex, toHex } from '../util/hex.js';
import { MODEL_ARBITRARIES } from './arbitraries.test.js';
import { BlockCodec } from './block.js';
import { EventEnvelopeCodec } from './events.js';
import { AccountId } from './ids.js';
import { type Instruction, InstructionCodec } from './instructions.js';
import { parsePublicKey } from './keys.js';
import { NumericCodec } from './numeric.js';
import { ParametersCodec } from './parameters.js';
import { QueryResponseCodec, SignedQueryCodec } from './queries.js';
import { RejectionCodec } from './rejections.js';
import { SCHEMA } from './schema.js';
import { SignedTransactionCodec } from './transaction.js';

const GOLDEN_PATH = fileURLToPath(new URL('./testdata/golden.json', import.meta.url));
const GOLDEN_SEED = 20_260_001;
const REGISTER_PEER_PATH = fileURLToPath(new URL('./testdata/register-peer.json', import.meta.url));

interface GoldenVector {
  type: string;
  schema_hash: string;
  json: Json;
  hex: string;
}

/** Which types the file holds and how many values of each (about twenty in all). */
const PLAN: [AnyCodec, number][] = [
  [InstructionCodec, 5],
  [SignedTransactionCodec, 3],
  [BlockCodec, 2],
  [SignedQueryCodec, 2],
  [QueryResponseCodec, 2],
  [EventEnvelopeCodec, 2],
  [ParametersCodec, 1],
  [RejectionCodec, 1],
  [NumericCodec, 1],
  [AccountId, 1],
];
const CODECS = new Map(PLAN.map(([c]) => [c.name!, c]));

function generate(): GoldenVector[] {
  const out: GoldenVector[] = [];
  PLAN.forEach(([codec, count], i) => {
    const name = codec.name!;
    const values = fc.sample(MODEL_ARBITRARIES[name]!, { seed: GOLDEN_SEED + i, numRuns: count });
    for (const v of values) {
      const json = codec.toJson(v);
      out.push({
        type: name,
        schema_hash: toHex(SCHEMA.schemaHash(name)),
        json,
        hex: toHex(encode(codec, v)),
      });
    }
  });
  return out;
}

/**
 * A RegisterPeer with a real BLS key and proof of possession (the seeded sample holds none, and random
 * bytes are no proof): pins the wire form of the membership fields.
 */
function registerPeerVector(): Omit<GoldenVector, 'type'> {
  const bls = BlsKeyPair.fromSeed(new Uint8Array(32).fill(0x5a));
  const value: Instruction = {
    kind: 'RegisterPeer',
    peer: `ed0120${'AB'.repeat(32)}`,
    address: '10.0.0.7:1337',
    blsKey: publicKeyToText(bls.publicKey),
    pop: blsProvePossession(bls),
  };
  return {
    schema_hash: toHex(SCHEMA.schemaHash('Instruction')),
    json: InstructionCodec.toJson(value),
    hex: toHex(encode(InstructionCodec, value)),
  };
}

function update(): void {
  writeFileSync(GOLDEN_PATH, `${JSON.stringify(generate(), null, 2)}\n`);
  writeFileSync(REGISTER_PEER_PATH, `${JSON.stringify(registerPeerVector(), null, 2)}\n`);
  const biome = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));
  const r = spawnSync(biome, ['format', '--write', GOLDEN_PATH, REGISTER_PEER_PATH], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

if (process.env['UPDATE_GOLDEN'] === '1') update();
const GOLDEN = JSON.parse(readFileSync(GOLDEN_PATH, 'utf8')) as GoldenVector[];

describe('golden vectors (testdata/golden.json)', () => {
  it('cover every planned type, about twenty values', () => {
    assert.equal(
      GOLDEN.length,
      PLAN.reduce((n, [, count]) => n + count, 0),
    );
    assert.deepEqual(new Set(GOLDEN.map((g) => g.type)), new Set(CODECS.keys()));
  });

  GOLDEN.forEach((g, i) => {
    it(`#${i} ${g.type}: the JSON form encodes to the recorded bytes, and back`, () => {
      const codec = CODECS.get(g.type);
      assert.ok(codec !== undefined, `unknown type ${g.type}`);
      const value = codec.fromJson(g.json, '$');
      assert.equal(toHex(encode(codec, value)), g.hex, 'the encoding changed');
      const decoded = decodeOk(codec, fromHex(g.hex)!);
      assert.deepStrictEqual(codec.toJson(decoded), g.json, 'the JSON form changed');
      assert.equal(toHex(SCHEMA.schemaHash(g.type)), g.schema_hash, 'the schema hash changed');
    });
  });
});

describe('golden vector: RegisterPeer with a real proof of possession (testdata/register-peer.json)', () => {
  it('encodes as recorded, decodes back, and its proof verifies', () => {
    const g = JSON.parse(readFileSync(REGISTER_PEER_PATH, 'utf8')) as Omit<GoldenVector, 'type'>;
    assert.deepStrictEqual(registerPeerVector(), g, 'the RegisterPeer wire or JSON form changed');
    const decoded = decodeOk(InstructionCodec, fromHex(g.hex)!);
    assert.ok(decoded.kind === 'RegisterPeer');
    assert.ok(blsVerifyPossession(parsePublicKey(decoded.blsKey)!.bytes, decoded.pop));
  });
});
