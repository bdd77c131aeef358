import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { AUDIT_GENESIS_HASH, verifyChain } from './audit.js';
import type { BridgeRecord } from './record.js';
import { BridgeStore } from './store.js';

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
});
