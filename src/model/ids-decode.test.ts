// The direct text decoders of keys and ids (`decodeText` in keys.ts and ids.ts) against the generic path
// they replace — decode the binary parts, then print them — on valid encodings and on random bytes:
// same text, or the same error code at the same offset.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Codec } from '../codec/codec.js';
import { CodecError } from '../codec/errors.js';
import { decode, encode } from '../codec/frame.js';
import { Reader } from '../codec/reader.js';
import { publicKeyToText } from '../crypto/keys.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId } from './ids.js';
import { PublicKeyText } from './keys.js';
import { Name } from './names.js';

type Decoder = (r: Reader) => string;

/** The generic path for a public key: the PublicKeyBytes enum value, then its print. */
const keyReference: Decoder = (r) => {
  const v = PublicKeyText.children()[0]!.decode(r) as { kind: string; key: Uint8Array };
  return publicKeyToText({ algorithm: v.kind === 'Ed25519' ? 'ed25519' : 'bls12_381', bytes: v.key });
};

/** The generic path for a two-part id: its parts struct (entered like any struct), then the joined text. */
function partsReference(left: Decoder, sep: string, right: Decoder): Decoder {
  return (r) => {
    r.enter();
    const a = left(r);
    const b = right(r);
    r.leave();
    return a + sep + b;
  };
}

const plain =
  (c: Codec<string>): Decoder =>
  (r) =>
    c.decode(r);
const accountReference = partsReference(keyReference, '@', plain(DomainId));
const definitionReference = partsReference(plain(Name), '#', plain(DomainId));
const CASES: { name: string; codec: Codec<string>; reference: Decoder }[] = [
  { name: 'PublicKey', codec: PublicKeyText, reference: keyReference },
  { name: 'AccountId', codec: AccountId, reference: accountReference },
  { name: 'AssetDefinitionId', codec: AssetDefinitionId, reference: definitionReference },
  { name: 'AssetId', codec: AssetId, reference: partsReference(definitionReference, '#', accountReference) },
  { name: 'NftId', codec: NftId, reference: partsReference(plain(Name), '$', plain(DomainId)) },
];

type Outcome = { text: string; end: number } | { code: string; at: number | string | undefined };

function outcome(bytes: Uint8Array, depthMax: number, read: Decoder): Outcome {
  const r = new Reader(bytes, { bytesMax: 1 << 20, itemsMax: 1000, depthMax });
  try {
    const text = read(r);
    return { text, end: r.pos };
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    return { code: e.code, at: e.at };
  }
}

const KEY = 'ed0120' + 'AB'.repeat(32);
const SAMPLES = {
  PublicKey: [KEY, 'ea0130' + '0F'.repeat(48)],
  AccountId: [`${KEY}@wonderland`],
  AssetDefinitionId: ['rose#wonderland'],
  AssetId: [`rose#wonderland#${KEY}@garden`],
  NftId: ['deed$wonderland'],
} as const;

describe('direct text decoders match the generic path', () => {
  for (const { name, codec, reference } of CASES) {
    it(`${name}: valid encodings, truncations, depth limits and random bytes agree`, () => {
      for (const text of SAMPLES[name as keyof typeof SAMPLES]) {
        const bytes = encode(codec, text);
        const back = decode(codec, bytes, { bytesMax: 1 << 20, itemsMax: 1000, depthMax: 32 });
        assert.ok(back.ok && back.value === text, `${name} round trip`);
        for (let cut = 0; cut <= bytes.length; cut++) {
          for (const depth of [0, 1, 2, 32]) {
            const part = bytes.subarray(0, cut);
            assert.deepEqual(
              outcome(part, depth, (r) => codec.decode(r)),
              outcome(part, depth, reference),
            );
          }
        }
      }
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 160 }), fc.integer({ min: 0, max: 4 }), (bytes, depth) => {
          assert.deepEqual(
            outcome(bytes, depth, (r) => codec.decode(r)),
            outcome(bytes, depth, reference),
          );
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('a remembered encoding is never used for a different or invalid text', () => {
    const canonical = `${KEY}@wonderland`;
    const lower = `${KEY.toLowerCase()}@wonderland`;
    assert.deepEqual(encode(AccountId, lower), encode(AccountId, canonical));
    assert.deepEqual(encode(AccountId, canonical), encode(AccountId, lower));
    assert.throws(() => encode(AccountId, `${KEY}@wonder land`), { code: 'codec_invalid_value' });
    assert.throws(() => encode(AccountId, `${KEY}@wonder land`), { code: 'codec_invalid_value' });
  });
});
