import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AUDIT_GENESIS_HASH, verifyChain } from './audit.js';
import type { BridgeRecord } from './record.js';
import { BridgeStore } from './store.js';

/** Counts the calls of `method` on the store's private LMDB database `db` (the spy stays for the store's life). */
function countCalls(s: BridgeStore, db: string, method: string, only?: (args: unknown[]) => boolean) {
  const target = (s as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>>)[db]!;
  const original = target[method]!.bind(target);
  const calls = { n: 0 };
  target[method] = (...args: unknown[]) => {
    if (only === undefined || only(args)) calls.n++;
    return original(...args);
  };
  return calls;
}

function record(id: string, status = 'Pending', pacs002Code = 'ACTC'): BridgeRecord {
  return {
    messageId: id,
    kind: 'pacs008',
    messageDefinitionId: 'pacs.008.001.09',
    receivedAtMs: 1,
    updatedAtMs: 1,
    status,
    pacs002Code,
    ledgerId: 'l',
    transfers: [],
    transactions: [],
    links: [],
    info: {},
  };
}

describe('BridgeStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bridge-store-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('serves its own writes at once, and keeps records, chain, pending set and transactions across reopening', async () => {
    const s = await BridgeStore.open(dir, { fsync: true, nowMs: () => 5 });
    const pending = s.apply({
      changes: [{ record: record('A'), event: 'received' }],
      transactions: [['A', new Uint8Array([1, 2])]],
    });
    assert.equal(s.get('A')?.pacs002Code, 'ACTC', 'read-your-writes before the flush');
    await pending;
    await s.apply({
      changes: [
        { record: record('A', 'Accepted', 'ACSC'), event: 'settled' },
        { record: record('B'), event: 'received' },
      ],
    });
    const head = s.chainHead();
    await s.close();

    const again = await BridgeStore.open(dir, { fsync: true, nowMs: () => 6 });
    assert.equal(again.get('A')?.pacs002Code, 'ACSC');
    assert.deepEqual(again.pendingIds(), ['B']);
    assert.deepEqual(again.signedTransaction('A'), new Uint8Array([1, 2]));
    assert.deepEqual(again.chainHead(), head);
    assert.deepEqual(again.durableHead(), head);
    const entries = again.entries(1, 10);
    assert.deepEqual(
      entries.map((e) => `${e.seq}:${e.messageId}:${e.event}:${e.status}`),
      ['1:A:received:ACTC', '2:A:settled:ACSC', '3:B:received:ACTC'],
    );
    assert.deepEqual(verifyChain(entries, AUDIT_GENESIS_HASH), { ok: true });
    assert.equal(entries.at(-1)?.hash, head.hash);
    await again.close();
    assert.throws(() => again.apply({ changes: [] }), { code: 'iso_bridge_unavailable' });
  });

  it('verifyChain names the first entry whose hash, link or order is wrong', async () => {
    const s = await BridgeStore.open(dir, { fsync: false, nowMs: () => 5 });
    await s.apply({ changes: ['A', 'B', 'C'].map((id) => ({ record: record(id), event: 'received' })) });
    const entries = s.entries(1, 10);
    await s.close();
    assert.deepEqual(verifyChain([{ ...entries[0]!, event: 'x' }, ...entries.slice(1)], AUDIT_GENESIS_HASH), {
      ok: false,
      seq: 1,
      reason: 'hash',
    });
    assert.deepEqual(verifyChain([entries[0]!, entries[2]!], AUDIT_GENESIS_HASH), {
      ok: false,
      seq: 3,
      reason: 'order',
    });
    assert.deepEqual(verifyChain(entries.slice(1), AUDIT_GENESIS_HASH), {
      ok: false,
      seq: 2,
      reason: 'link',
    });
  });

  it('group commit: writes issued during a flush share one LMDB transaction and one chain-head write, each resolved only once durable', async () => {
    const s = await BridgeStore.open(dir, { fsync: true, nowMs: () => 5 });
    const transactions = countCalls(s, 'root', 'transaction');
    const headWrites = countCalls(s, 'meta', 'putSync', (a) => a[0] === 'audit_head');
    const durableAtResolve: number[] = [];
    const write = (id: string) =>
      s.apply({ changes: [{ record: record(id), event: 'received' }] }).then(() => {
        durableAtResolve.push(s.durableHead().seq);
      });
    const first = write('G-0'); // starts a flush; the next ten queue behind it
    const rest = Array.from({ length: 10 }, (_, i) => write(`G-${i + 1}`));
    await Promise.all([first, ...rest]);
    assert.equal(transactions.n, 2, 'the first write alone, then the ten queued behind it together');
    assert.equal(headWrites.n, 2, 'one chain-head write per transaction');
    assert.deepEqual(
      durableAtResolve,
      [1, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11],
      'resolved after its group',
    );
    const head = s.chainHead();
    await s.close();
    const again = await BridgeStore.open(dir, { fsync: true, nowMs: () => 6 });
    assert.deepEqual(again.chainHead(), head, 'the last write of the group is the stored chain head');
    await again.close();
  });

  it('keeps the durable version of a Pending record in memory (no read back from disk) until it is final', async () => {
    const s = await BridgeStore.open(dir, { fsync: false, nowMs: () => 5, liveRecordsMax: 2 });
    const a = record('A');
    await s.apply({ changes: [{ record: a, event: 'received' }] });
    assert.equal(s.get('A'), a, 'served from memory once durable');
    const queued = record('A', 'Pending', 'ACSP');
    await s.apply({ changes: [{ record: queued, event: 'queued' }] });
    assert.equal(s.get('A'), queued, 'the newest durable version');
    const settled = record('A', 'Accepted', 'ACSC');
    await s.apply({ changes: [{ record: settled, event: 'settled' }] });
    assert.notEqual(s.get('A'), settled, 'a final record is read from disk');
    assert.deepEqual(s.get('A'), settled);
    // Bounded: the oldest Pending record leaves memory first, and is read from disk after.
    const [b, c, d] = [record('B'), record('C'), record('D')];
    await s.apply({ changes: [b, c, d].map((r) => ({ record: r, event: 'received' })) });
    assert.notEqual(s.get('B'), b);
    assert.deepEqual(s.get('B'), b);
    assert.equal(s.get('C'), c);
    assert.equal(s.get('D'), d);
    await s.close();
  });

  it('touches the pending set only when a record enters or leaves Pending', async () => {
    const s = await BridgeStore.open(dir, { fsync: false, nowMs: () => 5 });
    const puts = countCalls(s, 'pending', 'putSync');
    const removes = countCalls(s, 'pending', 'removeSync');
    await s.apply({ changes: [{ record: record('A'), event: 'received' }] });
    // Queued behind nothing and then behind a write not yet on disk: both know A is in the set.
    await s.apply({ changes: [{ record: record('A', 'Pending', 'ACSP'), event: 'queued' }] });
    const inFlight = s.apply({ changes: [{ record: record('B'), event: 'received' }] });
    await s.apply({ changes: [{ record: record('B', 'Pending', 'ACSP'), event: 'queued' }] });
    await inFlight;
    await s.apply({ changes: [{ record: record('A', 'Accepted', 'ACSC'), event: 'settled' }] });
    assert.equal(puts.n, 2, 'A and B entered once each');
    assert.equal(removes.n, 1, 'A left once');
    await s.close();
    const again = await BridgeStore.open(dir, { fsync: false, nowMs: () => 6 });
    assert.deepEqual(again.pendingIds(), ['B']);
    await again.close();
  });

  it("serves the hashes anchors are computed over from memory for this process's durable entries", async () => {
    const s = await BridgeStore.open(dir, { fsync: false, nowMs: () => 5 });
    await s.apply({ changes: ['A', 'B', 'C'].map((id) => ({ record: record(id), event: 'received' })) });
    const fromDisk = s.entries(1, 3).map((e) => e.hash);
    const reads = countCalls(s, 'audit', 'getRange');
    assert.deepEqual(s.entryHashes(1, 3), fromDisk);
    assert.deepEqual(s.entryHashes(2, 3), fromDisk.slice(1));
    assert.equal(reads.n, 0, 'no audit entry read back');
    const notDurable = s.apply({ changes: [{ record: record('D'), event: 'received' }] });
    assert.deepEqual(s.entryHashes(1, 4), fromDisk, 'an entry not on disk yet is not served');
    assert.equal(reads.n, 1);
    await notDurable;
    await s.close();
    const again = await BridgeStore.open(dir, { fsync: false, nowMs: () => 6 });
    const reread = countCalls(again, 'audit', 'getRange');
    assert.deepEqual(again.entryHashes(1, 3), fromDisk, 'entries of an earlier process are read from disk');
    assert.equal(reread.n, 1);
    await again.close();
  });
});
