// decodeBlockWithSpans against decode(BlockCodec): the same value or the same error for valid blocks,
// their truncations, byte flips and random bytes, and span hashes equal to the re-encoding hashes.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decode, encode } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { MODEL_ARBITRARIES } from './arbitraries.test.js';
import { type Block, BlockCodec } from './block.js';
import { decodeBlockWithSpans, spanPayloadHash, spanTransactionHash } from './block-spans.js';
import { payloadHash, transactionHash } from './transaction.js';

const blockArb = MODEL_ARBITRARIES.Block as fc.Arbitrary<Block>;

function sameOutcome(bytes: Uint8Array, limits: DecodeLimits): void {
  const a = decode(BlockCodec, bytes, limits);
  const b = decodeBlockWithSpans(bytes, limits);
  if (a.ok && b.ok) assert.deepEqual(b.value.block, a.value);
  else if (!a.ok && !b.ok) assert.deepEqual([b.error.code, b.error.at], [a.error.code, a.error.at]);
  else assert.fail(`one decoder accepted, the other refused: ${JSON.stringify([a.ok, b.ok])}`);
}

const LIMITS: DecodeLimits = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 };

describe('decodeBlockWithSpans', () => {
  it('valid blocks: the same block, spans whose hashes are the payload and transaction hashes', () => {
    fc.assert(
      fc.property(blockArb, (block) => {
        const bytes = encode(BlockCodec, block);
        const d = decodeBlockWithSpans(bytes, LIMITS);
        assert.ok(d.ok);
        assert.deepEqual(d.value.block, decode(BlockCodec, bytes, LIMITS).ok && block);
        d.value.block.transactions.forEach((tx, i) => {
          const s = d.value.spans[i]!;
          assert.deepEqual(spanPayloadHash(bytes, s), payloadHash(tx.payload));
          assert.deepEqual(spanTransactionHash(bytes, s), transactionHash(tx));
        });
      }),
      { numRuns: 60 },
    );
  });

  it('truncations, flipped bytes, tight limits and random bytes give the same outcome', () => {
    fc.assert(
      fc.property(
        blockArb,
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom(1, 2, 3, 4, 32),
        fc.constantFrom(0, 1, 2, 10_000),
        (block, at, xor, depthMax, itemsMax) => {
          const bytes = encode(BlockCodec, block);
          const limits = { bytesMax: 1 << 20, itemsMax, depthMax };
          sameOutcome(bytes, limits);
          sameOutcome(bytes.subarray(0, at % (bytes.length + 1)), LIMITS);
          const flipped = bytes.slice();
          flipped[at % bytes.length]! ^= xor;
          sameOutcome(flipped, LIMITS);
        },
      ),
      { numRuns: 150 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => sameOutcome(bytes, LIMITS)),
      { numRuns: 500 },
    );
  });
});
