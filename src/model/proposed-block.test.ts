// ProposedBlockCodec (a block before certification: header + transactions): encodeProposedBlock is
// byte for byte the codec's encoding, with or without the received transaction encodings, and
// decodeProposedBlockWithSpans decodes exactly as the codec does, with spans hashing to the
// transaction hashes.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decode, encode } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { MODEL_ARBITRARIES } from './arbitraries.test.js';
import { type Block, encodeProposedBlock, type ProposedBlock, ProposedBlockCodec } from './block.js';
import { decodeProposedBlockWithSpans, spanPayloadHash, spanTransactionHash } from './block-spans.js';
import { payloadHash, SignedTransactionCodec, transactionHash } from './transaction.js';

const proposedArb = (MODEL_ARBITRARIES.Block as fc.Arbitrary<Block>).map(
  (b): ProposedBlock => ({ header: b.header, transactions: b.transactions }),
);
const LIMITS: DecodeLimits = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 };

function sameOutcome(bytes: Uint8Array, limits: DecodeLimits): void {
  const a = decode(ProposedBlockCodec, bytes, limits);
  const b = decodeProposedBlockWithSpans(bytes, limits);
  if (a.ok && b.ok) assert.deepEqual(b.value.block, a.value);
  else if (!a.ok && !b.ok) assert.deepEqual([b.error.code, b.error.at], [a.error.code, a.error.at]);
  else assert.fail(`one decoder accepted, the other refused: ${JSON.stringify([a.ok, b.ok])}`);
}

describe('ProposedBlockCodec', () => {
  it('round-trips; encodeProposedBlock equals the codec with and without received encodings', () => {
    fc.assert(
      fc.property(proposedArb, fc.boolean(), (block, reuse) => {
        const bytes = encode(ProposedBlockCodec, block);
        const encoded = reuse ? block.transactions.map((t) => encode(SignedTransactionCodec, t)) : undefined;
        assert.deepEqual(encodeProposedBlock(block, encoded), bytes);
        const d = decodeProposedBlockWithSpans(bytes, LIMITS);
        assert.ok(d.ok);
        assert.deepEqual(d.value.block, block);
        d.value.block.transactions.forEach((tx, i) => {
          const s = d.value.spans[i]!;
          assert.deepEqual(spanPayloadHash(bytes, s), payloadHash(tx.payload));
          assert.deepEqual(spanTransactionHash(bytes, s), transactionHash(tx));
        });
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a wrong number of received encodings', () => {
    fc.assert(
      fc.property(proposedArb, (block) => {
        assert.throws(() =>
          encodeProposedBlock(block, [...block.transactions.map(() => undefined), undefined]),
        );
      }),
      { numRuns: 5 },
    );
  });

  it('truncations and flipped bytes: the span decoder and the codec agree', () => {
    fc.assert(
      fc.property(proposedArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (block, at, xor) => {
        const bytes = encode(ProposedBlockCodec, block);
        sameOutcome(bytes.subarray(0, at % (bytes.length + 1)), LIMITS);
        const flipped = bytes.slice();
        flipped[at % bytes.length]! ^= xor;
        sameOutcome(flipped, LIMITS);
        sameOutcome(bytes, { ...LIMITS, itemsMax: 0 });
      }),
      { numRuns: 150 },
    );
  });
});
