// The bridge service against a fake ledger port: the crash windows of exactly-once delivery (a record
// durable but its transaction never submitted; a commit while the bridge was down), the busy retry,
// admission rejections, and persistence of records and the audit chain across reopening.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../../registry.js';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  FakeLedger,
  flatPacs008,
  testSigner,
} from '../../../../test/fixtures/iso20022/fake-ledger-fixture.js';
import { decodeFrame } from '../../../codec/frame.js';
import { SCHEMA } from '../../../model/schema.js';
import { SignedTransactionCodec, transactionHash } from '../../../model/transaction.js';
import { toHex } from '../../../util/hex.js';
import { EMPTY_REFERENCE_DATA } from '../reference-data.js';
import { AUDIT_GENESIS_HASH, verifyChain } from './audit.js';
import { Bridge } from './service.js';
import { BridgeStore } from './store.js';

const LIMITS = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 };
const decoded = (bytes: Uint8Array) => {
  const d = decodeFrame(SCHEMA, SignedTransactionCodec, bytes, LIMITS);
  assert.ok(d.ok);
  return d.value;
};
const hashOf = (bytes: Uint8Array) => toHex(transactionHash(decoded(bytes)));
/** Anchor transactions submitted (they carry no message id). */
const anchors = (ledger: FakeLedger) =>
  ledger.submitted.filter((b) => decoded(b).payload.metadata.get('iso20022_message_id') === undefined);
/** Submissions of a message's transaction (audit anchors are submitted too and are left out). */
const sends = (ledger: FakeLedger, id: string) =>
  ledger.submitted.filter((b) => decoded(b).payload.metadata.get('iso20022_message_id') === id);

// The deadline stops a hang, not a slow machine: every wait below is for a condition the bridge reaches.
async function until(cond: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    assert.ok(Date.now() < end, 'condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('bridge service (fake ledger)', () => {
  let dir: string;
  let ledger: FakeLedger;
  let store: BridgeStore;
  const open = async () => {
    store = await BridgeStore.open(dir, { fsync: false, nowMs: () => ledger.now });
    return Bridge.start({
      ledger,
      signer: testSigner(),
      store,
      reference: EMPTY_REFERENCE_DATA,
      participants: new Map(),
      xmlLimits: {},
      retryIntervalMs: 10,
      submitBatchMax: 64,
    });
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bridge-svc-'));
    ledger = new FakeLedger();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a record stored but never submitted (crash) is submitted once on restart, then settles', async () => {
    ledger.mode = 'hang';
    const first = await open();
    // Closing fails the request (503) before its transaction is handed over; the record stays durable.
    const inFlight = first.submit('pacs008', flatPacs008('M-1'), undefined);
    await until(() => {
      try {
        return first.record('M-1').pacs002Code === 'ACTC';
      } catch {
        return false;
      }
    });
    await first.close();
    await assert.rejects(inFlight, { code: 'iso_bridge_unavailable' });
    assert.equal(sends(ledger, 'M-1').length, 0);

    ledger.mode = 'queue';
    const second = await open();
    assert.equal(sends(ledger, 'M-1').length, 1, 'resubmitted exactly once');
    const r = second.record('M-1');
    assert.equal(r.pacs002Code, 'ACSP');
    assert.equal(hashOf(sends(ledger, 'M-1')[0]!), r.transactionHash);
    ledger.commit(r.transactionHash!, 4);
    await until(() => second.record('M-1').pacs002Code === 'ACSC');
    assert.equal(second.record('M-1').blockHeight, 4);
    await second.close();
  });

  it('a transaction committed while the bridge was down settles without a resubmission', async () => {
    const first = await open();
    const { record: r } = await first.submit('pacs008', flatPacs008('M-2'), undefined);
    assert.equal(r.pacs002Code, 'ACSP');
    await first.close();
    ledger.statuses.set(r.transactionHash!, { kind: 'committed', height: 9 });
    const second = await open();
    await until(() => second.record('M-2').pacs002Code === 'ACSC');
    assert.equal(sends(ledger, 'M-2').length, 1);
    await second.close();
  });

  it('a full queue leaves the record ACTC and the retry timer sends it later', async () => {
    ledger.mode = 'busy';
    const b = await open();
    const { record: r } = await b.submit('pacs008', flatPacs008('M-3'), undefined);
    assert.equal(r.pacs002Code, 'ACTC');
    ledger.mode = 'queue';
    await until(() => b.record('M-3').pacs002Code === 'ACSP');
    assert.equal(sends(ledger, 'M-3').length, 1);
    await b.close();
  });

  it('an admission rejection is RJCT with the ISO reason (transaction_expired → ED07)', async () => {
    ledger.mode = 'expired';
    const b = await open();
    await b.submit('pacs008', flatPacs008('M-4'), undefined);
    await until(() => b.record('M-4').pacs002Code === 'RJCT');
    assert.equal(b.record('M-4').reasonCode, 'ED07');
    assert.equal(b.record('M-4').status, 'Rejected');
    await b.close();
  });

  it('messages arriving together are submitted in batches, in order, each with its own outcome', async () => {
    const b = await open();
    const ids = ['C-1', 'C-2', 'C-3', 'C-4', 'C-5', 'C-6'];
    const idOf = (bytes: Uint8Array) => decoded(bytes).payload.metadata.get('iso20022_message_id');
    ledger.decide = (bytes) =>
      idOf(bytes) === 'C-3' ? { kind: 'rejected', code: 'transaction_expired', message: 'late' } : undefined;
    const records = await Promise.all(ids.map((id) => b.submit('pacs008', flatPacs008(id), undefined)));
    assert.deepEqual(
      records.map((r) => r.record.pacs002Code),
      ['ACSP', 'ACSP', 'RJCT', 'ACSP', 'ACSP', 'ACSP'],
    );
    assert.equal(b.record('C-3').reasonCode, 'ED07');
    const submitted = ledger.submitted.map(idOf).filter((id) => id !== undefined);
    assert.deepEqual(submitted, ids, 'handed over in the order the records were written');
    assert.ok(
      ledger.batches.some((n) => n > 1),
      `batches ${ledger.batches.join(',')}`,
    );
    await b.close();
  });

  it('records, duplicates and the audit chain persist across reopening', async () => {
    const first = await open();
    for (const id of ['P-1', 'P-2']) await first.submit('pacs008', flatPacs008(id), undefined);
    await first.close();
    const second = await open();
    const again = await second.submit('pacs008', flatPacs008('P-1'), undefined);
    assert.deepEqual([again.replayed, again.record.messageId], [true, 'P-1']);
    await assert.rejects(second.submit('pacs008', { ...flatPacs008('P-1'), amount: '13.00' }, undefined), {
      code: 'iso_duplicate_message',
    });
    const page = second.audit(0, 100);
    assert.equal(page.total, 4);
    assert.deepEqual(verifyChain(page.entries, AUDIT_GENESIS_HASH), { ok: true });
    assert.deepEqual(
      page.entries.map((e) => `${e.messageId}:${e.event}`),
      ['P-1:received', 'P-1:queued', 'P-2:received', 'P-2:queued'],
    );
    await second.close();
    await assert.rejects(second.submit('pacs008', flatPacs008('P-3'), undefined), {
      code: 'iso_bridge_unavailable',
    });
  });

  it('answers a resubmission only once the first copy is on disk', async () => {
    const b = await open();
    const first = b.submit('pacs008', flatPacs008('D-1'), undefined);
    // The second arrives while the first is still being written: its replay must wait for that write.
    const second = await b.submit('pacs008', flatPacs008('D-1'), undefined);
    assert.equal(second.replayed, true);
    assert.ok(b.audit(0, 10).total >= 1, 'the first copy is durable when the resubmission is answered');
    // A different body under the same id, also while the first may be in flight: 409.
    await assert.rejects(b.submit('pacs008', { ...flatPacs008('D-1'), amount: '13.00' }, undefined), {
      code: 'iso_duplicate_message',
    });
    assert.equal((await first).replayed, false);
    assert.equal(sends(ledger, 'D-1').length, 1);
    await b.close();
  });

  it('anchors the audit chain; a refused anchor waits for new entries instead of retrying every block', async () => {
    const b = await open();
    await b.submit('pacs008', flatPacs008('A-1'), undefined);
    await until(() => anchors(ledger).length >= 1);
    const kv = decoded(anchors(ledger)[0]!).payload.instructions[0];
    assert.equal(kv?.kind === 'SetKeyValue' ? kv.key : '', 'iso20022_audit');
    // Refuse every anchor until the bridge stops trying: it must not re-anchor block after block. After
    // each refusal the bridge is left to finish (its store writes on disk, the work they release run):
    // then either a new anchor is in flight, and is refused in turn once submitted, or none is.
    let seen = 0;
    while (seen <= 2) {
      seen = anchors(ledger).length;
      ledger.reject(hashOf(anchors(ledger)[seen - 1]!), 4 + seen, 'permission_denied');
      await store.settled();
      await new Promise((r) => setImmediate(r));
      if (b.audit(0, 10).pendingAnchor === undefined) break;
      await until(() => anchors(ledger).length > seen);
    }
    // A block with no bridge activity after the last refusal: still nothing to anchor.
    ledger.commit('ab'.repeat(32), 4 + seen + 1);
    await store.settled();
    await new Promise((r) => setImmediate(r));
    assert.equal(b.audit(0, 10).pendingAnchor, undefined);
    assert.equal(anchors(ledger).length, seen);
    assert.ok(seen <= 2, `anchored ${seen} times for two entries`);
    await b.submit('pacs008', flatPacs008('A-2'), undefined);
    await until(() => anchors(ledger).length === seen + 1);
    const retry = decoded(anchors(ledger)[seen]!).payload.instructions[0];
    assert.equal(retry?.kind === 'SetKeyValue' ? (retry.value as { from_seq: number }).from_seq : -1, 1);
    ledger.commit(hashOf(anchors(ledger)[seen]!), 9);
    await until(() => b.audit(0, 10).anchors.length === 1);
    const page = b.audit(0, 10);
    assert.equal(page.anchors[0]?.blockHeight, 9);
    assert.ok(page.entries.filter((e) => e.anchorIndex === 1).length >= 3);
    await b.close();
  });
});
