// The audit manifest end to end: every bridge message and status change is an entry of a hash chain,
// ranges of entries are anchored in the ledger by the bridge account (SetKeyValue iso20022_audit), and
// a client holding only GET /v1/iso20022/audit/messages and the anchoring blocks recomputes the chain,
// the Merkle roots and each entry's inclusion proof, and detects any tampered entry.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { transactionHash } from '../../src/model/transaction.js';
import { AuditEntryCodec, entryHash } from '../../src/modules/iso20022/bridge/audit.js';
import {
  type AuditPageJson,
  type LedgerAnchor,
  verifyAuditPage,
} from '../../src/modules/iso20022/bridge/audit-verify.js';
import { merkleRoot } from '../../src/modules/iso20022/bridge/merkle.js';
import { BridgeRecordCodec, recordHash } from '../../src/modules/iso20022/bridge/record.js';
import { fromHex, toHex } from '../../src/util/hex.js';
import {
  type BridgeNode,
  EUR,
  get,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from './bridge-fixture.js';
import { pacs008Sample } from './messages.js';

type Page = AuditPageJson & {
  total: number;
  chain_head: { seq: number; hash: string };
  pending_anchor?: unknown;
  bridge_account: string;
  metadata_key: string;
};

async function anchoredPage(b: BridgeNode): Promise<Page> {
  const until = Date.now() + 5000;
  for (;;) {
    const page = (await get(b, '/v1/iso20022/audit/messages?limit=500')).json() as Page;
    const done =
      page.pending_anchor === undefined &&
      page.entries.length === page.total &&
      page.entries.every((e) => e.anchor_index !== undefined);
    if (done) return page;
    assert.ok(Date.now() < until, 'the audit manifest was not anchored in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Reads each anchor's value from its block: the SetKeyValue of the anchoring transaction. */
async function ledgerAnchors(b: BridgeNode, page: Page): Promise<Map<number, LedgerAnchor>> {
  const out = new Map<number, LedgerAnchor>();
  for (const a of page.anchors) {
    const block = await b.node.ledger.block(a.block_height!);
    const i = block?.transactions.findIndex((tx) => toHex(transactionHash(tx)) === a.transaction_hash) ?? -1;
    const tx = block?.transactions[i];
    const ins = tx?.payload.instructions[0];
    assert.equal(block?.results[i]?.kind, 'Committed');
    assert.equal(tx?.payload.authority, page.bridge_account);
    if (
      ins?.kind === 'SetKeyValue' &&
      ins.key === page.metadata_key &&
      ins.target.kind === 'Account' &&
      ins.target.id === page.bridge_account
    )
      out.set(a.index, ins.value as unknown as LedgerAnchor);
  }
  return out;
}

/** The hash an honest server would give this (edited) entry. */
function rehash(e: Page['entries'][number]): string {
  const { hash: _h, anchor_index: _a, proof: _p, ...fields } = e;
  return entryHash(AuditEntryCodec.fromJson(fields as never, '$'));
}

describe('ISO 20022 bridge: audit manifest', () => {
  let b: BridgeNode;
  let page: Page;
  let onLedger: Map<number, LedgerAnchor>;
  before(async () => {
    b = await startBridgeNode();
    const pins = { source: b.alice.id, target: b.bob.id, asset: EUR };
    for (const id of ['AUD-1', 'AUD-2', 'AUD-3'])
      await post(b, 'pacs008', pacs008Sample(id, pins, `E2E-${id}`));
    for (const id of ['AUD-1', 'AUD-2', 'AUD-3']) await waitFor(b, id, settledOrRejected);
    page = await anchoredPage(b);
    onLedger = await ledgerAnchors(b, page);
  });
  after(() => b.stopAll());

  it('logs every message and status change in order: received, queued, settled', () => {
    assert.equal(page.total, 9);
    const aud1 = page.entries.filter((e) => e.message_id === 'AUD-1').map((e) => `${e.event}:${e.status}`);
    assert.deepEqual(aud1, ['received:ACTC', 'queued:ACSP', 'settled:ACSC']);
    assert.equal(page.chain_head.seq, 9);
    assert.equal(page.chain_head.hash, page.entries[8]!.hash);
  });

  it('recomputes the chain, the anchored roots and the ledger anchors from the served data alone', async () => {
    assert.deepEqual(
      verifyAuditPage(page, (i) => onLedger.get(i)),
      [],
    );
    // Independently: each anchored range's root from its entry hashes equals the root in the block.
    for (const a of page.anchors) {
      const leaves = page.entries
        .filter((e) => e.seq >= a.from_seq && e.seq <= a.to_seq)
        .map((e) => fromHex(e.hash, 32)!);
      assert.equal(toHex(merkleRoot(leaves)), onLedger.get(a.index)?.root);
    }
    // Each message's newest entry commits to its current record.
    const record = (await get(b, '/v1/iso20022/messages/AUD-3')).json();
    const last = page.entries.filter((e) => e.message_id === 'AUD-3').at(-1)!;
    assert.equal(last.record_hash, toHex(recordHash(BridgeRecordCodec.fromJson(record, '$'))));
  });

  it('detects a tampered entry, a re-hashed entry, and a rewritten chain', () => {
    const copy = (): Page => JSON.parse(JSON.stringify(page)) as Page;
    const ledger = (i: number) => onLedger.get(i);

    const edited = copy();
    (edited.entries[4] as Record<string, unknown>).status = 'RJCT';
    assert.deepEqual(
      verifyAuditPage(edited, ledger).map((p) => `${p.seq}:${p.problem}`),
      ['5:entry_hash'],
    );

    const rehashed = copy();
    const e = rehashed.entries[4]!;
    (e as Record<string, unknown>).status = 'RJCT';
    e.hash = rehash(e);
    const found = verifyAuditPage(rehashed, ledger).map((p) => `${p.seq}:${p.problem}`);
    assert.ok(found.includes('5:proof') && found.includes('6:link'), found.join());

    // Rewriting every later hash keeps the chain consistent, but not the roots anchored on the ledger.
    const rewritten = copy();
    let prev = rewritten.prev_hash;
    for (const x of rewritten.entries) {
      if (x.seq === 5) (x as Record<string, unknown>).status = 'RJCT';
      (x as Record<string, unknown>).prev_hash = prev;
      x.hash = rehash(x);
      prev = x.hash;
    }
    const problems = verifyAuditPage(rewritten, ledger);
    assert.ok(
      problems.some((p) => p.problem === 'proof') && problems.every((p) => p.problem === 'proof'),
      JSON.stringify(problems),
    );
  });

  it('pages with offset and limit, giving the hash before the page', async () => {
    const second = (await get(b, '/v1/iso20022/audit/messages?offset=3&limit=2')).json() as Page;
    assert.deepEqual(
      second.entries.map((e) => e.seq),
      [4, 5],
    );
    assert.equal(second.prev_hash, page.entries[2]!.hash);
    assert.deepEqual(
      verifyAuditPage(second, (i) => onLedger.get(i)),
      [],
    );
    assert.equal((await get(b, '/v1/iso20022/audit/messages?limit=0')).status, 400);
  });
});
