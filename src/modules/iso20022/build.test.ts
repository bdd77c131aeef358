import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CAMT029_INPUT,
  PACS002_INPUT,
  PACS004_INPUT,
  SESE024_INPUT,
  SESE025_INPUT,
} from '../../../test/fixtures/iso20022/build-fixture.js';
import { assertRule, ok } from '../../../test/fixtures/iso20022/samples-fixture.js';
import { buildCamt029 } from './build/camt029.js';
import type { BuildResult } from './build/inputs.js';
import { buildPacs002 } from './build/pacs002.js';
import { buildPacs004 } from './build/pacs004.js';
import { buildSese024 } from './build/sese024.js';
import { buildSese025 } from './build/sese025.js';
import { escapeAttribute, escapeText } from './build/xml-writer.js';
import { parseMessage } from './parse.js';
import { parseIsoXml } from './xml.js';

function xml(r: BuildResult): string {
  if (!r.ok) assert.fail(JSON.stringify(r.errors));
  return r.xml;
}

describe('XML writer', () => {
  it('escapes text and attribute values', () => {
    assert.equal(escapeText('a<b>&c "d"'), 'a&lt;b&gt;&amp;c "d"');
    assert.equal(escapeAttribute(`"'<&>\t\n\r`), '&quot;&apos;&lt;&amp;&gt;&#x9;&#xA;&#xD;');
  });
});

describe('pacs.002 builder', () => {
  it('writes what our own reader reads back, escaped, and byte-identical for the same input', () => {
    const out = xml(buildPacs002(PACS002_INPUT));
    assert.equal(out, xml(buildPacs002(structuredClone(PACS002_INPUT))));
    assert.ok(out.includes('<OrgnlEndToEndId>INV-2025-0043 &lt;R&amp;D&gt;</OrgnlEndToEndId>'));
    const m = ok(parseMessage('pacs002', out));
    assert.equal(m.messageId, PACS002_INPUT.messageId);
    assert.deepEqual(
      m.groups.map((g) => [g.original.messageId, g.original.messageNameId, g.status]),
      [['DEUT-P008-20250314-000117', 'pacs.008.001.09', 'PART']],
    );
    assert.deepEqual(
      m.transactions.map((t) => [t.refs.endToEndId, t.status, t.reasons[0]?.code]),
      [
        ['INV-2025-0042', 'ACSC', undefined],
        ['INV-2025-0043 <R&D>', 'RJCT', 'AM04'],
        ['INV-2025-0044', 'ACTC', undefined],
      ],
    );
    assert.equal(
      m.transactions[1]?.reasons[0]?.additionalInfo[0],
      'Insufficient funds on "Muster" & Co\'s account',
    );
  });

  it('requires a reason for RJCT and validates every input field', () => {
    const tx = PACS002_INPUT.transactions[1]!;
    assertRule(
      buildPacs002({ ...PACS002_INPUT, transactions: [{ ...tx, reasonCode: undefined }] }),
      'required',
      'transactions[0].reasonCode',
    );
    assertRule(
      buildPacs002({ ...PACS002_INPUT, instructingAgentBic: 'NWBK' }),
      'bic_format',
      'instructingAgentBic',
    );
    assertRule(
      buildPacs002({ ...PACS002_INPUT, creationTime: '2025-03-14' }),
      'datetime_format',
      'creationTime',
    );
    assertRule(buildPacs002({ ...PACS002_INPUT, messageId: 'x'.repeat(36) }), 'text_length', 'messageId');
    assertRule(
      buildPacs002({ ...PACS002_INPUT, messageId: 'bad\u0000id' }),
      'text_invalid_char',
      'messageId',
    );
    assertRule(
      buildPacs002({ ...PACS002_INPUT, transactions: [{ ...tx, status: 'XXXX' as 'RJCT' }] }),
      'code_unknown',
      'transactions[0].status',
    );
    assertRule(
      buildPacs002({ ...PACS002_INPUT, groupStatus: undefined, transactions: [] }),
      'required',
      'transactions',
    );
  });
});

describe('pacs.004 builder', () => {
  it('writes amounts in the currency minor units and reads back', () => {
    const out = xml(buildPacs004(PACS004_INPUT));
    assert.ok(out.includes('<RtrdIntrBkSttlmAmt Ccy="EUR">1250.00</RtrdIntrBkSttlmAmt>'));
    assert.ok(out.includes('<RtrdIntrBkSttlmAmt Ccy="JPY">5000</RtrdIntrBkSttlmAmt>'));
    assert.ok(out.includes('<NbOfTxs>2</NbOfTxs>'));
    const m = ok(parseMessage('pacs004', out));
    assert.deepEqual(
      m.transactions.map((t) => [
        t.originalMessageId,
        t.amount.mantissa,
        t.reasonCode,
        t.reasons[0]?.proprietary,
      ]),
      [
        ['DEUT-P008-20250314-000117', 125000n, 'AC04', undefined],
        ['DEUT-P008-20250314-000117', 5000n, undefined, 'LEDGER-REVERTED'],
      ],
    );
  });

  it('refuses a missing reason, a bad amount and no transactions', () => {
    const tx = PACS004_INPUT.transactions[0]!;
    assertRule(
      buildPacs004({ ...PACS004_INPUT, transactions: [{ ...tx, reasonCode: undefined }] }),
      'required',
      'transactions[0].reasonCode',
    );
    const jpy = { ...tx, returnedAmount: { currency: 'JPY', value: '10.5' } };
    assertRule(
      buildPacs004({ ...PACS004_INPUT, transactions: [jpy] }),
      'amount_precision',
      'transactions[0].returnedAmount.value',
    );
    assertRule(buildPacs004({ ...PACS004_INPUT, transactions: [] }), 'required', 'transactions');
  });
});

describe('camt.029 builder', () => {
  it('writes the resolution with its case, status and cancellation details', () => {
    const out = xml(buildCamt029(CAMT029_INPUT));
    const doc = parseIsoXml(out);
    assert.ok(doc.ok);
    assert.equal(doc.value.messageDefinitionId, 'camt.029.001.10');
    const r = doc.value.document!.child('RsltnOfInvstgtn');
    assert.equal(r.at('Assgnmt', 'Id').text(), CAMT029_INPUT.assignmentId);
    assert.equal(r.at('RslvdCase', 'Cretr', 'Agt', 'FinInstnId', 'BICFI').text(), 'DEUTDEFFXXX');
    assert.equal(r.at('Sts', 'Conf').text(), 'RJCR');
    const tx = r.at('CxlDtls', 'TxInfAndSts');
    assert.deepEqual(
      [tx.child('TxCxlSts').text(), tx.at('CxlStsRsnInf', 'Rsn', 'Cd').text()],
      ['RJCR', 'ARDT'],
    );
    assert.equal(r.at('CxlDtls', 'OrgnlGrpInfAndSts', 'OrgnlMsgId').text(), 'DEUT-P008-20250314-000117');
  });

  it('requires a reason for a rejected cancellation and a known status', () => {
    const tx = CAMT029_INPUT.transactions[0]!;
    assertRule(
      buildCamt029({ ...CAMT029_INPUT, transactions: [{ ...tx, reasonCode: undefined }] }),
      'required',
      'transactions[0].reasonCode',
    );
    assertRule(buildCamt029({ ...CAMT029_INPUT, status: 'DONE' as 'CNCL' }), 'code_unknown', 'status');
    assertRule(buildCamt029({ ...CAMT029_INPUT, assigneeBic: '' }), 'required', 'assigneeBic');
  });
});

describe('sese.024 and sese.025 builders', () => {
  it('sese.024 reads back through our sese.024 reader', () => {
    const m = ok(parseMessage('sese024', xml(buildSese024(SESE024_INPUT))));
    assert.deepEqual(
      [m.accountOwnerTransactionId, m.accountServicerTransactionId],
      ['COBA-SETI-20250312-0007', 'TORANA-SETI-0007'],
    );
    assert.deepEqual(m.processingStatus, { status: 'AckdAccptd', reasonCode: 'NORE' });
    assert.deepEqual(m.matchingStatus, { status: 'Mtchd', reasonCode: undefined });
    assert.deepEqual(m.settlementStatus, { status: 'Flng', reasonCode: 'LACK' });
    const rejected = ok(
      parseMessage(
        'sese024',
        xml(
          buildSese024({
            accountOwnerTransactionId: 'T',
            processing: { status: 'rejected', reasonCode: 'SAFE' },
          }),
        ),
      ),
    );
    assert.deepEqual(rejected.processingStatus, { status: 'Rjctd', reasonCode: 'SAFE' });
    assertRule(buildSese024({ accountOwnerTransactionId: 'T' }), 'required', 'processing');
    assertRule(
      buildSese024({ accountOwnerTransactionId: 'T', processing: { status: 'done' as 'accepted' } }),
      'code_unknown',
      'processing.status',
    );
  });

  it('sese.025 reads back through our sese.025 reader', () => {
    const m = ok(parseMessage('sese025', xml(buildSese025(SESE025_INPUT))));
    assert.deepEqual(
      [m.paymentType, m.isin, m.effectiveSettlementDate],
      ['DVP', 'DE0001102580', '2025-03-14'],
    );
    assert.deepEqual(m.settledQuantity, { type: 'face_amount', value: { mantissa: 5000000n, scale: 0 } });
    assert.equal(m.settledAmount?.text, '4987500.00');
    assert.deepEqual(m.delivering, {
      depositoryBic: 'DAKVDEFFXXX',
      partyBic: 'COBADEFFXXX',
      partySafekeepingAccount: 'COBA-SAFE-7001',
    });
    assertRule(buildSese025({ ...SESE025_INPUT, settledAmount: undefined }), 'required', 'settledAmount');
    assertRule(buildSese025({ ...SESE025_INPUT, isin: 'DE0001102581' }), 'isin_checksum', 'isin');
    assertRule(
      buildSese025({ ...SESE025_INPUT, quantity: { type: 'unit', value: '1e3' } }),
      'quantity_format',
      'quantity.value',
    );
    const free = ok(
      parseMessage(
        'sese025',
        xml(buildSese025({ ...SESE025_INPUT, payment: 'FREE', settledAmount: undefined })),
      ),
    );
    assert.equal(free.paymentType, 'FOP');
  });
});
