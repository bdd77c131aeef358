// pacs.004 returns, camt.056 cancellations (answered by camt.029) and pacs.002 status reports in,
// through the live routes, with the generated pacs.004 and camt.029 validated against the official
// ISO 20022 schemas.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertXsdValid,
  type BridgeNode,
  balance,
  EUR,
  get,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from './bridge-fixture.js';
import { edited, pacs008Sample, sample } from './messages.js';

const ORIGINAL = 'DEUT-P008-20250314-000117';

/** A camt.056 (the sample) cancelling `original` (end-to-end id INV-2025-0042). */
function camt056(id: string, original: string): string {
  return edited(sample('camt056.xml'), [
    ['DEUT-CXL-20250314-0004', id],
    [ORIGINAL, original],
  ]);
}

function pacs004(id: string, original: string, amount: string): string {
  return edited(sample('pacs004.xml'), [
    ['NWBK-P004-20250317-0012', id],
    [ORIGINAL, original],
    [
      '<RtrdIntrBkSttlmAmt Ccy="EUR">1250.00</RtrdIntrBkSttlmAmt>',
      `<RtrdIntrBkSttlmAmt Ccy="EUR">${amount}</RtrdIntrBkSttlmAmt>`,
    ],
  ]);
}

describe('ISO 20022 bridge: returns, cancellations, status reports', () => {
  let b: BridgeNode;
  let pins: { source: string; target: string; asset: string };
  before(async () => {
    b = await startBridgeNode();
    pins = { source: b.alice.id, target: b.bob.id, asset: EUR };
    await post(b, 'pacs008', pacs008Sample(ORIGINAL, pins));
    assert.equal((await waitFor(b, ORIGINAL, settledOrRejected)).pacs002_code, 'ACSC');
  });
  after(() => b.stopAll());

  it('pacs.002 in is recorded against the original (no ledger effect); an unknown original is 422', async () => {
    const r = await post(b, 'pacs002', sample('pacs002.xml'));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.original_message_id, ORIGINAL);
    assert.equal(r.body.transaction_hash, undefined);
    const original = (await get(b, `/v1/iso20022/messages/${ORIGINAL}`)).json();
    assert.deepEqual(original.links, [{ kind: 'pacs002', message_id: 'NWBK-P002-20250314-0091' }]);
    const stranger = edited(sample('pacs002.xml'), [
      ['NWBK-P002-20250314-0091', 'P002-X'],
      [ORIGINAL, 'NOBODY'],
    ]);
    const u = await post(b, 'pacs002', stranger);
    assert.equal(u.status, 422);
    assert.equal(u.body.details.rule, 'original_unknown');
    assert.equal(u.body.details.path, '/Document/FIToFIPmtStsRpt/OrgnlGrpInfAndSts/OrgnlMsgId');
  });

  it('camt.056 of a settled payment: RJCR (already settled), camt.029 valid against the schema', async () => {
    const r = await post(b, 'camt056', camt056('CXL-SETTLED', ORIGINAL));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.resolution, 'RJCR');
    assert.equal(r.body.status, 'Rejected');
    for (const id of ['CXL-SETTLED', ORIGINAL]) {
      const xml = (await get(b, `/v1/iso20022/messages/${id}/camt029`)).text;
      assert.match(xml, /<Conf>RJCR<\/Conf>/);
      assert.match(xml, /<Prtry>ALREADY_SETTLED<\/Prtry>/);
      await assertXsdValid('camt.029.001.10.xsd', xml);
    }
  });

  it('pacs.004 returns the amount from creditor to debtor, linked; pacs.004 XML valid', async () => {
    const before = [balance(b, EUR, b.alice), balance(b, EUR, b.bob)];
    const r = await post(b, 'pacs004', pacs004('RTR-1', ORIGINAL, '1000.00'));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.source_account_id, b.bob.id);
    assert.equal(r.body.target_account_id, b.alice.id);
    assert.equal((await waitFor(b, 'RTR-1', settledOrRejected)).pacs002_code, 'ACSC');
    assert.equal(BigInt(balance(b, EUR, b.bob).split('e')[0]!), BigInt(before[1]!.split('e')[0]!) - 100000n);
    assert.equal(
      BigInt(balance(b, EUR, b.alice).split('e')[0]!),
      BigInt(before[0]!.split('e')[0]!) + 100000n,
    );
    for (const id of ['RTR-1', ORIGINAL]) {
      const xml = (await get(b, `/v1/iso20022/messages/${id}/pacs004`)).text;
      assert.match(xml, /<RtrdIntrBkSttlmAmt Ccy="EUR">1000.00<\/RtrdIntrBkSttlmAmt>/);
      assert.match(xml, /<Cd>AC04<\/Cd>/);
      await assertXsdValid('pacs.004.001.10.xsd', xml);
    }
    const rtrStatus = (await get(b, '/v1/iso20022/messages/RTR-1/pacs002')).text;
    await assertXsdValid('pacs.002.001.11.xsd', rtrStatus);
  });

  it('returns beyond the original amount, in another currency, or of unknown originals are 422', async () => {
    const amountPath = '/Document/PmtRtr/TxInf/RtrdIntrBkSttlmAmt';
    const over = await post(b, 'pacs004', pacs004('RTR-2', ORIGINAL, '250.01'));
    assert.equal(over.status, 422);
    assert.equal(over.body.details.rule, 'return_exceeds_original');
    assert.equal(over.body.details.path, amountPath);
    const chf = edited(pacs004('RTR-3', ORIGINAL, '1.00'), [
      ['<RtrdIntrBkSttlmAmt Ccy="EUR">', '<RtrdIntrBkSttlmAmt Ccy="CHF">'],
    ]);
    assert.equal((await post(b, 'pacs004', chf)).body.details.rule, 'currency_mismatch');
    const unknown = await post(b, 'pacs004', pacs004('RTR-4', 'NOBODY', '1.00'));
    assert.equal(unknown.body.details.rule, 'original_unknown');
    // The remaining 250.00 can still be returned.
    assert.equal((await post(b, 'pacs004', pacs004('RTR-5', ORIGINAL, '250.00'))).status, 202);
    assert.equal((await waitFor(b, 'RTR-5', settledOrRejected)).pacs002_code, 'ACSC');
  });

  it('camt.056 of a queued payment: PECR, then CNCL when the payment is rejected; camt.029 valid', async () => {
    await b.node.engine.stop();
    // Bob holds less than this: the transfer will be rejected (AM04) once a block is built.
    await post(
      b,
      'pacs008',
      pacs008Sample('DOOMED-1', { source: b.bob.id, target: b.alice.id, asset: EUR }, 'E2E-DOOMED'),
    );
    const rec = (await get(b, '/v1/iso20022/messages/DOOMED-1')).json();
    assert.equal(rec.pacs002_code, 'ACSP');
    const c = edited(camt056('CXL-QUEUED', 'DOOMED-1'), [['INV-2025-0042', 'E2E-DOOMED']]);
    const r = await post(b, 'camt056', c);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.resolution, 'PECR');
    const pending = (await get(b, '/v1/iso20022/messages/CXL-QUEUED/camt029')).text;
    assert.match(pending, /<Conf>PECR<\/Conf>/);
    await assertXsdValid('camt.029.001.10.xsd', pending);
    b.node.engine.start();
    assert.equal((await waitFor(b, 'DOOMED-1', settledOrRejected)).pacs002_code, 'RJCT');
    const done = await waitFor(b, 'CXL-QUEUED', (x) => x.resolution !== 'PECR');
    assert.equal(done.resolution, 'CNCL');
    assert.equal(done.status, 'Accepted');
    const xml = (await get(b, '/v1/iso20022/messages/CXL-QUEUED/camt029')).text;
    assert.match(xml, /<Conf>CNCL<\/Conf>[\s\S]*<TxCxlSts>ACCR<\/TxCxlSts>/);
    await assertXsdValid('camt.029.001.10.xsd', xml);
  });

  it('a pacs.004 of a payment that did not settle is 422 original_not_settled', async () => {
    const r = await post(
      b,
      'pacs004',
      edited(pacs004('RTR-6', 'DOOMED-1', '1.00'), [['INV-2025-0042', 'E2E-DOOMED']]),
    );
    assert.equal(r.status, 422);
    assert.equal(r.body.details.rule, 'original_not_settled');
  });
});
