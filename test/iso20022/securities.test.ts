// sese.023 delivery versus payment (both legs in one transaction), sese.024/sese.025 reports out
// (checked structurally by reading them back with the library) and in, and colr.012 collateral
// substitution as one atomic swap.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMessage } from '../../src/modules/iso20022/parse.js';
import {
  type BridgeNode,
  BUND,
  balance,
  EUR,
  get,
  OAT,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from './bridge-fixture.js';
import { edited, pinsXml, sample } from './messages.js';

const SETI = 'COBA-SETI-20250312-0007';
const units = (s: string) => BigInt(s.split('e')[0]!);

function sese023(
  txId: string,
  pins: Record<string, string>,
  edits: ReadonlyArray<readonly [string, string]> = [],
) {
  return edited(sample('sese023.xml'), [[SETI, txId], ...edits], ['SctiesSttlmTxInstr', pinsXml(pins)]);
}

describe('ISO 20022 bridge: securities settlement and collateral', () => {
  let b: BridgeNode;
  let dvpPins: Record<string, string>;
  before(async () => {
    b = await startBridgeNode();
    // alice holds the Bund and delivers it; carol pays EUR.
    dvpPins = {
      SourceAccountId: b.alice.id,
      TargetAccountId: b.carol.id,
      AssetDefinitionId: BUND,
      CashAssetDefinitionId: EUR,
    };
  });
  after(() => b.stopAll());

  it('sese.023 DVP moves securities and cash in one transaction', async () => {
    const before = { aliceBund: units(balance(b, BUND, b.alice)), carolEur: units(balance(b, EUR, b.carol)) };
    const r = await post(b, 'sese023', sese023(SETI, dvpPins));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.transfers.map((t: { leg: string }) => t.leg),
      ['securities', 'cash'],
    );
    const rec = await waitFor(b, SETI, settledOrRejected);
    assert.equal(rec.pacs002_code, 'ACSC');
    assert.equal(units(balance(b, BUND, b.alice)), before.aliceBund - 5_000_000n);
    assert.equal(balance(b, BUND, b.carol), '5000000e-0');
    assert.equal(units(balance(b, EUR, b.carol)), before.carolEur - 498_750_000n);
  });

  it('sese.024 and sese.025 out describe the settlement (read back with the library)', async () => {
    const status = (await get(b, `/v1/iso20022/messages/${SETI}/sese024`)).text;
    const s024 = parseMessage('sese024', status);
    assert.ok(s024.ok, s024.ok ? '' : JSON.stringify(s024.errors));
    assert.equal(s024.message.accountOwnerTransactionId, SETI);
    assert.equal(s024.message.processingStatus?.status, 'AckdAccptd');
    assert.equal(s024.message.matchingStatus?.status, 'Mtchd');
    const conf = (await get(b, `/v1/iso20022/messages/${SETI}/sese025`)).text;
    const s025 = parseMessage('sese025', conf);
    assert.ok(s025.ok, s025.ok ? '' : JSON.stringify(s025.errors));
    assert.equal(s025.message.isin, 'DE0001102580');
    assert.equal(s025.message.settledQuantity.value.mantissa, 5_000_000n);
    assert.equal(s025.message.settledAmount?.text, '4987500.00');
    assert.equal(s025.message.movement, 'DELI');
    assert.match(s025.message.effectiveSettlementDate, /^\d{4}-\d{2}-\d{2}$/);
  });

  it('sese.024 and sese.025 in are recorded against the instruction', async () => {
    const s024 = await post(b, 'sese024', sample('sese024.xml'));
    assert.equal(s024.status, 202, JSON.stringify(s024.body));
    const s025 = await post(b, 'sese025', sample('sese025.xml'));
    assert.equal(s025.status, 202, JSON.stringify(s025.body));
    const again = await post(b, 'sese025', sample('sese025.xml'));
    assert.deepEqual([again.status, again.replayed], [202, true], 'the same message again is a replay');
    const rec = (await get(b, `/v1/iso20022/messages/${SETI}`)).json();
    assert.deepEqual(
      rec.links.map((l: { kind: string }) => l.kind),
      ['sese024', 'sese025'],
    );
    const stray = edited(sample('sese024.xml'), [[SETI, 'NO-SUCH-SETI']]);
    assert.equal((await post(b, 'sese024', stray)).body.details.rule, 'original_unknown');
  });

  it('a DVP whose cash leg fails moves nothing: RJCT, sese.024 rejected with MONY, no sese.025', async () => {
    // RECE against payment: alice receives 1,000 Bund from carol and pays more EUR than she holds.
    const xml = sese023('SETI-POOR', dvpPins, [
      ['<SctiesMvmntTp>DELI</SctiesMvmntTp>', '<SctiesMvmntTp>RECE</SctiesMvmntTp>'],
      ['<FaceAmt>5000000</FaceAmt>', '<FaceAmt>1000</FaceAmt>'],
      ['<Amt Ccy="EUR">4987500.00</Amt>', '<Amt Ccy="EUR">900000000.00</Amt>'],
    ]);
    const before = [balance(b, BUND, b.alice), balance(b, BUND, b.carol), balance(b, EUR, b.alice)];
    assert.equal((await post(b, 'sese023', xml)).status, 202);
    const rec = await waitFor(b, 'SETI-POOR', settledOrRejected);
    assert.equal(rec.pacs002_code, 'RJCT');
    assert.deepEqual(
      [balance(b, BUND, b.alice), balance(b, BUND, b.carol), balance(b, EUR, b.alice)],
      before,
    );
    const s024 = parseMessage('sese024', (await get(b, '/v1/iso20022/messages/SETI-POOR/sese024')).text);
    assert.ok(s024.ok);
    assert.deepEqual(s024.message.processingStatus, { status: 'Rjctd', reasonCode: 'MONY' });
    assert.equal(
      (await get(b, '/v1/iso20022/messages/SETI-POOR/sese025')).json().code,
      'iso_report_unavailable',
    );
  });

  it('free of payment has only the securities leg; missing pins are 422', async () => {
    const fop = sese023('SETI-FOP', dvpPins, [
      ['<Pmt>APMT</Pmt>', '<Pmt>FREE</Pmt>'],
      ['<FaceAmt>5000000</FaceAmt>', '<FaceAmt>10</FaceAmt>'],
    ]);
    const r = await post(b, 'sese023', fop);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.transfers.map((t: { leg: string }) => t.leg),
      ['securities'],
    );
    assert.equal((await waitFor(b, 'SETI-FOP', settledOrRejected)).pacs002_code, 'ACSC');
    const { TargetAccountId: _, ...noTarget } = dvpPins;
    const missing = await post(b, 'sese023', sese023('SETI-NOPIN', noTarget));
    assert.equal(missing.status, 422);
    assert.equal(missing.body.details.rule, 'account_unresolved');
    assert.equal(
      missing.body.details.path,
      '/Document/SctiesSttlmTxInstr/SplmtryData/Envlp/Ledger/TargetAccountId',
    );
  });

  it('colr.012 substitutes collateral atomically: Bund back to the giver, OAT to the taker', async () => {
    // carol (giver) had delivered Bund collateral to alice (taker); she substitutes OAT for it.
    const pins = {
      SourceAccountId: b.carol.id,
      TargetAccountId: b.alice.id,
      ReturnedAssetDefinitionId: BUND,
      ReturnedQuantity: '1000000',
      DeliveredAssetDefinitionId: OAT,
      DeliveredQuantity: '5100000',
    };
    const before = { aliceBund: units(balance(b, BUND, b.alice)), carolOat: units(balance(b, OAT, b.carol)) };
    const r = await post(b, 'colr012', edited(sample('colr012.xml'), [], ['CollSbstitnConf', pinsXml(pins)]));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal((await waitFor(b, 'DEUT-SUBCONF-0314-01', settledOrRejected)).pacs002_code, 'ACSC');
    assert.equal(units(balance(b, BUND, b.alice)), before.aliceBund - 1_000_000n);
    assert.equal(units(balance(b, OAT, b.carol)), before.carolOat - 5_100_000n);
    assert.equal(balance(b, OAT, b.alice), '5100000e-0');
    const bad = edited(
      sample('colr012.xml'),
      [['DEUT-SUBCONF-0314-01', 'SUB-2']],
      ['CollSbstitnConf', pinsXml({ ...pins, DeliveredQuantity: '1.5' })],
    );
    const refused = await post(b, 'colr012', bad);
    assert.equal(refused.status, 422);
    assert.equal(refused.body.details.rule, 'quantity_scale');
  });
});
