// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
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
  it('takes within a weight budget: each authority within its share, in order; never-fitting ones leave', () => {
    const q = new TransactionQueue({ capacity: 10, perAccountMax: 10, expiryMs: 1000 });
    const weights: Record<string, number> = { [`${a.id}-1`]: 60, [`${a.id}-2`]: 60, [`${a.id}-3`]: 10 };
    weights[`${b.id}-1`] = 10;
    weights[`${b.id}-2`] = 500;
    for (const e of [entry(a, 1), entry(a, 2), entry(a, 3), entry(b, 2), entry(b, 1)]) q.push(e);
    const budget = { total: 150, perAccount: 100, weightOf: (e: QueuedTransaction) => weights[e.hashHex]! };
    const first = q.take(10, 0, budget);
    // a-2 passes a's share: a waits with a-3 behind it; b-2 can never fit a block and leaves.
    assert.deepEqual(
      first.ready.map((e) => e.hashHex),
      [`${a.id}-1`, `${b.id}-1`],
    );
    assert.deepEqual(
      first.expired.map((e) => e.hashHex),
      [`${b.id}-2`],
    );
    assert.deepEqual(
      q.take(10, 0, budget).ready.map((e) => e.hashHex),
      [`${a.id}-2`, `${a.id}-3`],
    );
  });

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

  it('caps one signing key across its accounts, and frees the count', () => {
    const sameKey = { key: a.key, id: a.id.replace('@d', '@e') };
    const q = new TransactionQueue({ capacity: 10, perAccountMax: 10, perKeyMax: 2, expiryMs: 1000 });
    assert.equal(q.push(entry(a, 1)).ok, true);
    assert.equal(q.push(entry(sameKey, 2)).ok, true);
    assert.deepEqual(q.push(entry(a, 3)), { ok: false, code: 'key_queue_full', depth: 2 });
    assert.equal(q.push(entry(b, 1)).ok, true, 'another key is not affected');
    q.take(1, 0);
    assert.equal(q.push(entry(a, 3)).ok, true);
  });

  it('caps one source address; in-process submissions carry none; frees the count', () => {
    const q = new TransactionQueue({ capacity: 10, perAccountMax: 10, perSourceMax: 2, expiryMs: 1000 });
    const from = (e: QueuedTransaction, source: string) => ({ ...e, source });
    assert.equal(q.push(from(entry(a, 1), '10.0.0.1')).ok, true);
    assert.equal(q.push(from(entry(b, 2), '10.0.0.1')).ok, true);
    assert.deepEqual(q.push(from(entry(a, 3), '10.0.0.1')), {
      ok: false,
      code: 'source_queue_full',
      depth: 2,
    });
    assert.equal(q.push(from(entry(a, 3), '10.0.0.2')).ok, true, 'another address is not affected');
    assert.equal(q.push(entry(a, 4)).ok, true);
    q.take(1, 0);
    assert.equal(q.push(from(entry(a, 5), '10.0.0.1')).ok, true);
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

  it('removes by hash and frees the per-account count', () => {
    const q = new TransactionQueue({ capacity: 10, perAccountMax: 1, expiryMs: 1000 });
    assert.equal(q.push(entry(a, 1)).ok, true);
    assert.equal(q.remove('nope'), undefined);
    assert.equal(q.remove(`${a.id}-1`)?.hashHex, `${a.id}-1`);
    assert.equal(q.depth, 0);
    assert.equal(q.has(`${a.id}-1`), false);
    assert.equal(q.push(entry(a, 2)).ok, true, 'the account cap was freed');
  });

  it('puts taken transactions back at the front, in order, counted again, skipping queued ones', () => {
    const q = new TransactionQueue({ capacity: 3, perAccountMax: 2, expiryMs: 1000 });
    q.push(entry(a, 1));
    q.push(entry(a, 2));
    const taken = q.take(2, 0).ready;
    q.push(entry(b, 1));
    q.push(entry(a, 3));
    assert.equal(q.requeueFront([...taken, entry(b, 1)]), 2);
    assert.equal(q.depth, 4, 'may exceed the capacity by one proposal');
    assert.deepEqual(
      q.take(10, 0).ready.map((x) => x.hashHex),
      [`${a.id}-1`, `${a.id}-2`, `${b.id}-1`, `${a.id}-3`],
    );
    assert.equal(q.requeueFront([]), 0);
    assert.equal(q.push(entry(a, 4)).ok, true, 'counts were released by take');
    assert.equal(q.push(entry(a, 5)).ok, true);
    assert.deepEqual(q.push(entry(a, 6)), { ok: false, code: 'account_queue_full', depth: 2 });
  });
});
