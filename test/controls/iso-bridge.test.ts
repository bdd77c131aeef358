// Transfer controls cannot be bypassed through the ISO 20022 bridge: a pacs.008
// submitted through its route becomes an ordinary TransferAsset signed by the bridge delegate, so the
// rules refuse it with their own code (RJCT, the ledger code as the proprietary reason) and allow it once
// cleared. The reason a person reads (the record's reason_text, the pacs.002 AddtlInf) gives the cap and
// the amount at the definition's scale (EUR: 2), though the committed rejection keeps base units.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { controlInstructions } from '../helpers/controls-fixture.js';
import { run } from '../helpers/node.js';
import {
  type BridgeNode,
  balance,
  EUR,
  get,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from '../iso20022/bridge-fixture.js';
import { sample } from '../iso20022/messages.js';

/** The flat pacs.008 sample as a fresh message of `amount` EUR from `source` to `target`. */
function pacs008Flat(messageId: string, source: string, target: string, amount: string) {
  return {
    ...JSON.parse(sample('pacs008.flat.json')),
    message_id: messageId,
    amount,
    ledger_id: 'torana-test',
    source_account_id: source,
    target_account_id: target,
    asset_definition_id: EUR,
  };
}

describe('transfer controls and the ISO 20022 bridge', () => {
  let b: BridgeNode;
  before(async () => {
    b = await startBridgeNode();
  });
  after(() => b.stopAll());

  const ins = controlInstructions(EUR);
  const admin = async (instructions: Parameters<typeof run>[2]) =>
    assert.equal((await run(b, b.admin, instructions)).status.kind, 'Committed');
  let n = 0;
  const pay = async (amount: string) => {
    const id = `CTRL-${++n}`;
    const r = await post(b, 'pacs008', pacs008Flat(id, b.alice.id, b.bob.id, amount));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    return waitFor(b, id, settledOrRejected);
  };

  it('refuses a bridge transfer from a frozen account, to a blacklisted one, above a cap', async () => {
    const before = balance(b, EUR, b.bob);
    await admin([ins.freeze(b.alice.id)]);
    let rec = await pay('10.00');
    assert.equal(rec.pacs002_code, 'RJCT');
    assert.equal(rec.info.ledger_rejection.code, 'transfer_frozen');
    await admin([ins.freeze(b.alice.id, false), ins.blacklist(b.bob.id)]);
    rec = await pay('10.00');
    assert.equal(rec.info.ledger_rejection.code, 'account_blacklisted');
    await admin([ins.blacklist(b.bob.id, false), ins.cap(b.alice.id, 'Tx', '5')]);
    rec = await pay('10.00');
    assert.equal(rec.info.ledger_rejection.code, 'transfer_cap_exceeded');
    const readable = `account cap 5.00 (window tx) of ${EUR} exceeded by ${b.alice.id}: 10.00 with this transfer`;
    console.log(`reason_text: ${rec.reason_text}`);
    assert.equal(rec.reason_text, readable);
    const report = await get(b, `/v1/iso20022/messages/CTRL-${n}/pacs002`);
    assert.equal(report.status, 200);
    assert.ok(report.text.includes(`<AddtlInf>${readable.slice(0, 105)}</AddtlInf>`), report.text);
    assert.equal(balance(b, EUR, b.bob), before);
    rec = await pay('5.00');
    assert.equal(rec.pacs002_code, 'ACSC');
  });
});
