// Coalesced submission: transactions handed over in one turn reach the ledger in one call, in order,
// each answered with its own outcome; the batch size is bounded; a failed call fails only its batch.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LedgerSubmitOutcome } from './ports.js';
import { SubmissionBatcher } from './submitter.js';

/** A port that records each call and answers by the first byte: 0 queued, 1 rejected, 2 busy. */
function port(fail = false) {
  const calls: number[][] = [];
  const outcome = (b: Uint8Array): LedgerSubmitOutcome =>
    b[0] === 0
      ? { kind: 'queued' }
      : b[0] === 1
        ? { kind: 'rejected', code: 'signature_invalid', message: `tx ${b[1]}` }
        : { kind: 'busy' };
  return {
    calls,
    async submitMany(txs: readonly Uint8Array[]) {
      calls.push(txs.map((t) => t[1]!));
      if (fail) throw new Error('pipeline closed');
      return txs.map(outcome);
    },
  };
}

const tx = (kind: number, n: number) => Uint8Array.of(kind, n);

describe('bridge submission batcher', () => {
  it('hands the transactions of one turn over in one call, in order, each with its own outcome', async () => {
    const p = port();
    const b = new SubmissionBatcher(p, 64);
    const kinds = [0, 1, 0, 2, 0, 1];
    const outcomes = await Promise.all(kinds.map((k, i) => b.submit(tx(k, i))));
    assert.deepEqual(p.calls, [[0, 1, 2, 3, 4, 5]]);
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ['queued', 'rejected', 'queued', 'busy', 'queued', 'rejected'],
    );
    assert.deepEqual(outcomes[5], { kind: 'rejected', code: 'signature_invalid', message: 'tx 5' });
  });

  it('splits a turn into calls of at most the batch size and keeps the order across them', async () => {
    const p = port();
    const b = new SubmissionBatcher(p, 4);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => b.submit(tx(0, i))));
    assert.deepEqual(p.calls, [
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
    assert.equal(outcomes.length, 10);
  });

  it('starts a new call for transactions handed over in a later turn', async () => {
    const p = port();
    const b = new SubmissionBatcher(p, 64);
    await Promise.all([b.submit(tx(0, 1)), b.submit(tx(0, 2))]);
    await b.submit(tx(0, 3));
    assert.deepEqual(p.calls, [[1, 2], [3]]);
  });

  it('rejects every transaction of a failed call, and only those', async () => {
    const failing = port(true);
    const b = new SubmissionBatcher(failing, 64);
    const settled = await Promise.allSettled([b.submit(tx(0, 1)), b.submit(tx(0, 2))]);
    assert.deepEqual(
      settled.map((s) => s.status),
      ['rejected', 'rejected'],
    );
    const ok = new SubmissionBatcher(port(), 64);
    assert.equal((await ok.submit(tx(0, 3))).kind, 'queued');
  });

  it('fails the transactions not handed over yet when closed, and refuses new ones', async () => {
    const p = port();
    const b = new SubmissionBatcher(p, 64);
    const pending = b.submit(tx(0, 1));
    b.close();
    await assert.rejects(pending, { code: 'iso_bridge_unavailable' });
    await assert.rejects(b.submit(tx(0, 2)), { code: 'iso_bridge_unavailable' });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(p.calls, []);
  });

  it('refuses a batch size that is not a positive integer', () => {
    assert.throws(() => new SubmissionBatcher(port(), 0));
  });
});
