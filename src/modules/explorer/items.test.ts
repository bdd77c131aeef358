// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encode } from '../../codec/frame.js';
import { MODEL_ARBITRARIES } from '../../model/arbitraries.test.js';
import type { Block } from '../../model/block.js';
import { type Rejection, RejectionCodec } from '../../model/rejections.js';
import { toHex } from '../../util/hex.js';
import { newestFirst, transactionDetail } from './items.js';

describe('newestFirst (explorer recent transactions)', () => {
  // Blocks newest first: block 0 holds 3 transactions, block 1 none, block 2 holds 2.
  const counts = [3, 0, 2];
  const page = (offset: number, count: number) =>
    newestFirst(counts, offset, count).map(({ block, index }) => `${block}:${index}`);

  it('walks blocks newest first and indexes from the last', () => {
    assert.deepEqual(page(0, 10), ['0:2', '0:1', '0:0', '2:1', '2:0']);
  });

  it('starts inside a block when the offset falls within it', () => {
    assert.deepEqual(page(1, 2), ['0:1', '0:0']);
    assert.deepEqual(page(2, 2), ['0:0', '2:1']);
  });

  it('skips whole and empty blocks, and gives nothing past the end', () => {
    assert.deepEqual(page(3, 1), ['2:1']);
    assert.deepEqual(page(4, 5), ['2:0']);
    assert.deepEqual(page(5, 5), []);
    assert.deepEqual(newestFirst([], 0, 5), []);
  });
});

describe('transactionDetail (explorer transaction view)', () => {
  // A block of the model's arbitraries with at least one transaction, its first one rejected by `reason`.
  const [sample] = fc.sample(
    (MODEL_ARBITRARIES.Block as fc.Arbitrary<Block>).filter((b) => b.transactions.length > 0),
    { numRuns: 1, seed: 7 },
  );
  const rejectedBy = (reason: Rejection): Block => ({
    ...sample!,
    results: sample!.transactions.map((_, i) =>
      i === 0 ? { kind: 'Rejected', reason } : { kind: 'Committed' },
    ),
  });

  it("gives a rejection's message with its amounts at scale; json and encoded keep the committed text", () => {
    const committed =
      'account cap 200 (window tx, units at scale 2) of usd#w exceeded by a@w: 350 with this transfer';
    const reason: Rejection = { code: 'transfer_cap_exceeded', instructionIndex: 0, message: committed };
    const detail = transactionDetail(rejectedBy(reason), 0)!;
    assert.equal(
      detail.rejectionReason?.message,
      'account cap 2.00 (window tx) of usd#w exceeded by a@w: 3.50 with this transfer',
    );
    assert.deepEqual(detail.rejectionReason?.json, reason);
    assert.equal(detail.rejectionReason?.encoded, toHex(encode(RejectionCodec, reason)));
    assert.deepEqual(detail.result, { kind: 'Rejected', reason });
  });

  it('gives a message without amounts as committed', () => {
    const reason: Rejection = { code: 'insufficient_funds', message: 'balance 1 below 2' };
    assert.equal(transactionDetail(rejectedBy(reason), 0)!.rejectionReason?.message, 'balance 1 below 2');
  });
});
