import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTx, newAccount } from '../../test/helpers/tx.js';
import { type QueuedTransaction, TransactionQueue } from './queue.js';

const a = newAccount('d', 1);
const b = newAccount('d', 2);

function entry(signer: typeof a, n: number, expiresAtMs = 1e15): QueuedTransaction {
  const tx = buildTx(signer, [{ kind: 'Log', level: { kind: 'Info' }, message: String(n) }], {
    creationTimeMs: 1,
  });
  return {
    tx,
    hash: new Uint8Array(32),
    hashHex: `${signer.id}-${n}`,
    encodedBytes: 100,
    admittedAtMs: 0,
    expiresAtMs,
  };
}

describe('transaction queue', () => {
  it('deduplicates by hash', () => {
    const q = new TransactionQueue({ capacity: 10, perAccountMax: 10, expiryMs: 1000 });
    assert.deepEqual(q.push(entry(a, 1)), { ok: true, depth: 1 });
    assert.deepEqual(q.push(entry(a, 1)), { ok: false, code: 'already_enqueued', depth: 1 });
  });

  it('enforces the total capacity and the per-account cap', () => {
    const q = new TransactionQueue({ capacity: 3, perAccountMax: 2, expiryMs: 1000 });
    assert.equal(q.push(entry(a, 1)).ok, true);
    assert.equal(q.push(entry(a, 2)).ok, true);
    assert.deepEqual(q.push(entry(a, 3)), { ok: false, code: 'account_queue_full', depth: 2 });
    assert.equal(q.push(entry(b, 1)).ok, true);
    assert.deepEqual(q.push(entry(b, 2)), { ok: false, code: 'queue_full', depth: 3 });
  });

  it('takes in admission order and frees capacity', () => {
    const q = new TransactionQueue({ capacity: 3, perAccountMax: 3, expiryMs: 1000 });
    for (let i = 0; i < 3; i++) q.push(entry(a, i));
    const { ready } = q.take(2, 0);
    assert.deepEqual(
      ready.map((r) => r.hashHex),
      [`${a.id}-0`, `${a.id}-1`],
    );
    assert.equal(q.depth, 1);
    assert.equal(q.push(entry(a, 9)).ok, true);
  });

  it('separates expired transactions on take and on sweep', () => {
    const q = new TransactionQueue({ capacity: 10, perAccountMax: 10, expiryMs: 1000 });
    q.push(entry(a, 1, 50));
    q.push(entry(a, 2, 500));
    q.push(entry(b, 3, 50));
    assert.deepEqual(
      q.sweep(100).map((e) => e.hashHex),
      [`${a.id}-1`, `${b.id}-3`],
    );
    const taken = q.take(10, 600);
    assert.equal(taken.ready.length, 0);
    assert.equal(taken.expired.length, 1);
    assert.equal(q.depth, 0);
  });
});
