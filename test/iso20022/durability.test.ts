// Exactly once (docs/iso20022.md "Restarts and exactly once"), under concurrent duplicates and across a crash
// between receipt and commit: ten identical concurrent submissions make one ledger transfer; a message
// accepted while the engine is stopped survives a node restart and settles once, from the stored signed
// transaction.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type BridgeNode,
  balance,
  EUR,
  get,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from './bridge-fixture.js';
import { pacs008Sample } from './messages.js';

const units = (s: string) => BigInt(s.split('e')[0]!);

/** Committed ledger transactions the bridge signed for `messageId` (scanning every block). */
async function transfersOnLedger(b: BridgeNode, messageId: string): Promise<number> {
  let n = 0;
  for (let h = 1; h <= b.node.ledger.height(); h++) {
    const block = await b.node.ledger.block(h);
    block?.transactions.forEach((tx, i) => {
      if (
        tx.payload.metadata.get('iso20022_message_id') === messageId &&
        block.results[i]?.kind === 'Committed'
      )
        n++;
    });
  }
  return n;
}

describe('ISO 20022 bridge: exactly once', () => {
  let b: BridgeNode;
  let pins: { source: string; target: string; asset: string };
  before(async () => {
    b = await startBridgeNode();
    pins = { source: b.alice.id, target: b.bob.id, asset: EUR };
  });
  after(() => b.stopAll());

  it('10 identical concurrent submissions: ten 202, nine of them replays of the record, one transfer', async () => {
    const before = units(balance(b, EUR, b.bob));
    const xml = pacs008Sample('CONC-1', pins);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(b, 'pacs008', xml)));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(10).fill(202),
    );
    assert.equal(answers.filter((a) => a.replayed).length, 9);
    for (const a of answers) assert.equal(a.body.message_id, 'CONC-1');
    assert.equal((await waitFor(b, 'CONC-1', settledOrRejected)).pacs002_code, 'ACSC');
    assert.equal(units(balance(b, EUR, b.bob)), before + 125_000n);
    assert.equal(await transfersOnLedger(b, 'CONC-1'), 1);
  });

  it('accepted while the engine is stopped, then a node restart: settles once from the stored transaction', async () => {
    await post(b, 'pacs008', pacs008Sample('EARLY-1', pins, 'E2E-EARLY'));
    assert.equal((await waitFor(b, 'EARLY-1', settledOrRejected)).pacs002_code, 'ACSC');
    await b.node.engine.stop();
    const before = units(balance(b, EUR, b.bob));
    const r = await post(b, 'pacs008', pacs008Sample('RESTART-1', pins, 'E2E-RESTART'));
    assert.equal(r.status, 202);
    assert.equal(r.body.pacs002_code, 'ACSP');
    assert.equal(units(balance(b, EUR, b.bob)), before);

    await b.restartServed();
    const rec = await waitFor(b, 'RESTART-1', settledOrRejected);
    assert.equal(rec.pacs002_code, 'ACSC');
    assert.equal(
      rec.transaction_hash,
      r.body.transaction_hash,
      'the stored signed transaction was resubmitted',
    );
    assert.equal(units(balance(b, EUR, b.bob)), before + 125_000n);
    assert.equal(await transfersOnLedger(b, 'RESTART-1'), 1);

    // Records and idempotency survive the restart.
    assert.equal((await get(b, '/v1/iso20022/messages/EARLY-1')).json().pacs002_code, 'ACSC');
    const again = await post(b, 'pacs008', pacs008Sample('EARLY-1', pins, 'E2E-EARLY'));
    assert.deepEqual([again.status, again.replayed, again.body.pacs002_code], [202, true, 'ACSC']);
    assert.equal((await post(b, 'pacs008', pacs008Sample('CONC-1', pins))).replayed, true);
    assert.equal((await post(b, 'pacs008', pacs008Sample('CONC-1', pins, 'E2E-X'))).status, 409);
    assert.equal(await transfersOnLedger(b, 'CONC-1'), 1);
  });
});
