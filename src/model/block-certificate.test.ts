// blockCertificate against decode(BlockCodec): the same certificate for blocks whose certificate names
// them, undefined (never another certificate) for truncated, flipped or foreign bytes.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decode, encode } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { MODEL_ARBITRARIES } from './arbitraries.test.js';
import { type Block, BlockCodec, blockHash } from './block.js';
import { blockCertificate } from './block-certificate.js';

const LIMITS: DecodeLimits = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 };

/** An arbitrary block whose certificate certifies it (its height and hash), as every stored block's. */
const certifiedArb = (MODEL_ARBITRARIES.Block as fc.Arbitrary<Block>).map(
  (b): Block => ({
    ...b,
    certificate: { ...b.certificate, height: b.header.height, blockHash: blockHash(b.header) },
  }),
);

/** Whatever blockCertificate answers for `bytes` is the full decode's certificate (or nothing). */
function agrees(bytes: Uint8Array): boolean {
  const quick = blockCertificate(bytes, LIMITS);
  if (quick === undefined) return false;
  const full = decode(BlockCodec, bytes, LIMITS);
  if (full.ok) assert.deepEqual(quick, full.value.certificate);
  return true;
}

describe('blockCertificate', () => {
  it('takes the certificate of a certified block without decoding the rest', () => {
    fc.assert(
      fc.property(certifiedArb, (block) => {
        const bytes = encode(BlockCodec, block);
        assert.deepEqual(blockCertificate(bytes, LIMITS), block.certificate);
        // A view into a larger buffer (as the block log hands over) reads the same.
        const padded = new Uint8Array(bytes.length + 7);
        padded.set(bytes, 3);
        assert.deepEqual(blockCertificate(padded.subarray(3, 3 + bytes.length), LIMITS), block.certificate);
      }),
      { numRuns: 150 },
    );
  });

  it('answers undefined for a certificate of another block (the caller then decodes the block)', () => {
    fc.assert(
      fc.property(certifiedArb, fc.nat(), (block, n) => {
        const other = { ...block.certificate, blockHash: new Uint8Array(32).fill(n & 0xff) };
        assert.equal(
          blockCertificate(encode(BlockCodec, { ...block, certificate: other }), LIMITS),
          undefined,
        );
        // One off the block's height, within the codec's range (a height may be the largest safe integer).
        const h = block.header.height;
        const wrongHeight = { ...block.certificate, height: h === Number.MAX_SAFE_INTEGER ? h - 1 : h + 1 };
        assert.equal(
          blockCertificate(encode(BlockCodec, { ...block, certificate: wrongHeight }), LIMITS),
          undefined,
        );
      }),
      { numRuns: 60 },
    );
  });

  it('truncations, flipped bytes and random bytes: undefined or the full decode’s certificate', () => {
    fc.assert(
      fc.property(certifiedArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (block, at, xor) => {
        const bytes = encode(BlockCodec, block);
        // Cut anywhere short of the end: the certificate no longer ends the bytes.
        assert.equal(blockCertificate(bytes.subarray(0, at % bytes.length), LIMITS), undefined);
        const flipped = bytes.slice();
        flipped[at % bytes.length]! ^= xor;
        agrees(flipped);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        agrees(bytes);
      }),
      { numRuns: 300 },
    );
  });
});
