// The message families other than pacs.008/pacs.009: each sample parses into its record, and
// each family reports a missing or bad key field at its path.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertCode,
  assertRule,
  dropElement,
  edit,
  ok,
  sample,
} from '../../../test/fixtures/iso20022/samples-fixture.js';
import { MESSAGE_KINDS, parseMessage } from './parse.js';

describe('payment messages', () => {
  it('pacs.002: original message, statuses and reasons', () => {
    const m = ok(parseMessage('pacs002', sample('pacs002.xml')));
    assert.equal(m.messageId, 'NWBK-P002-20250314-0091');
    assert.equal(m.groups[0]?.original.messageId, 'DEUT-P008-20250314-000117');
    const t = m.transactions[0]!;
    assert.deepEqual(
      [t.originalMessageId, t.status, t.reasons[0]?.code],
      ['DEUT-P008-20250314-000117', 'RJCT', 'AC01'],
    );
    assert.equal(t.refs.endToEndId, 'INV-2025-0042');
    const bad = edit(sample('pacs002.xml'), '<TxSts>RJCT', '<TxSts>NOPE');
    assertRule(parseMessage('pacs002', bad), 'code_unknown', '/Document/FIToFIPmtStsRpt/TxInfAndSts/TxSts');
    const noOriginal = dropElement(sample('pacs002.xml'), 'OrgnlGrpInfAndSts');
    assertRule(
      parseMessage('pacs002', noOriginal),
      'required',
      '/Document/FIToFIPmtStsRpt/TxInfAndSts/OrgnlGrpInf/OrgnlMsgId',
    );
  });

  it('pacs.004: original message, returned amount and reason code', () => {
    const m = ok(parseMessage('pacs004', sample('pacs004.xml')));
    const t = m.transactions[0]!;
    assert.equal(t.originalMessageId, 'DEUT-P008-20250314-000117');
    assert.equal(t.refs.transactionId, 'DEUT-TX-000117');
    assert.deepEqual(t.amount, { currency: 'EUR', text: '1250.00', mantissa: 125000n, scale: 2 });
    assert.equal(t.reasonCode, 'AC04');
    assertRule(
      parseMessage('pacs004', dropElement(sample('pacs004.xml'), 'RtrRsnInf')),
      'required',
      '/Document/PmtRtr/TxInf/RtrRsnInf/Rsn/Cd',
    );
    assertRule(
      parseMessage('pacs004', dropElement(sample('pacs004.xml'), 'RtrdIntrBkSttlmAmt')),
      'required',
      '/Document/PmtRtr/TxInf/RtrdIntrBkSttlmAmt',
    );
  });

  it('pacs.007: a reversal reads like a return', () => {
    const t = ok(parseMessage('pacs007', sample('pacs007.xml'))).transactions[0]!;
    assert.deepEqual([t.id, t.reasonCode, t.amount.mantissa], ['DEUT-RVSL-0003', 'AM05', 125000n]);
    assertRule(
      parseMessage('pacs007', dropElement(sample('pacs007.xml'), 'OrgnlGrpInf')),
      'required',
      '/Document/FIToFIPmtRvsl/TxInf/OrgnlGrpInf/OrgnlMsgId',
    );
  });

  it('camt.056: assignment, original references and cancellation reason', () => {
    const m = ok(parseMessage('camt056', sample('camt056.xml')));
    assert.equal(m.assignment.id, 'DEUT-CXL-20250314-0004');
    assert.equal(m.assignment.assignerBic, 'DEUTDEFFXXX');
    assert.equal(m.caseId, 'CASE-DEUT-2025-0311');
    const t = m.transactions[0]!;
    assert.deepEqual(
      [t.originalMessageId, t.refs.uetr, t.reasonCode],
      ['DEUT-P008-20250314-000117', '0f4c6d7e-3a2b-4c1d-9e8f-7a6b5c4d3e2f', 'DUPL'],
    );
    assert.equal(t.originalAmount?.mantissa, 125000n);
    assertRule(
      parseMessage('camt056', dropElement(sample('camt056.xml'), 'CreDtTm')),
      'required',
      '/Document/FIToFIPmtCxlReq/Assgnmt/CreDtTm',
    );
  });

  it('pacs.028 and pacs.029: status request and multilateral settlement request', () => {
    const req = ok(parseMessage('pacs028', sample('pacs028.xml')));
    assert.deepEqual(
      [req.transactions[0]?.originalMessageId, req.transactions[0]?.refs.endToEndId],
      ['DEUT-P008-20250314-000117', 'INV-2025-0042'],
    );
    const mul = ok(parseMessage('pacs029', sample('pacs029.xml')));
    const movements = mul.requests[0]?.movements ?? [];
    assert.deepEqual(
      movements.map((m) => [m.id, m.amount.mantissa, m.creditDebit]),
      [
        ['MV-1', 150000n, 'DBIT'],
        ['MV-2', 100000n, 'CRDT'],
        ['MV-3', 50000n, 'CRDT'],
      ],
    );
    const one = dropElement(dropElement(sample('pacs029.xml'), 'MvmntRcrd'), 'MvmntRcrd');
    assertRule(parseMessage('pacs029', one), 'required', '/Document/MulSttlmReq/SttlmReq/MvmntRcrd');
  });

  it('pain.001 and pain.002: initiation and customer status', () => {
    const p = ok(parseMessage('pain001', sample('pain001.xml'))).payments[0]!;
    assert.deepEqual(
      [p.paymentInformationId, p.requestedExecutionDate, p.debtorIban],
      ['MUSTER-PMTINF-0313-A', '2025-03-14', 'DE89370400440532013000'],
    );
    assert.deepEqual(
      p.transfers.map((t) => [t.endToEndId, t.amount.mantissa, t.creditorIban]),
      [
        ['INV-2025-0042', 125000n, 'GB29NWBK60161331926819'],
        ['INV-2025-0043', 9995n, 'FR1420041010050500013M02606'],
      ],
    );
    assertRule(
      parseMessage('pain001', edit(sample('pain001.xml'), '<NbOfTxs>2', '<NbOfTxs>3')),
      'count_mismatch',
      '/Document/CstmrCdtTrfInitn/GrpHdr/NbOfTxs',
    );
    const s = ok(parseMessage('pain002', sample('pain002.xml')));
    assert.equal(s.original.messageId, 'MUSTER-PAIN001-20250313-01');
    assert.deepEqual(
      s.payments[0]?.transactions.map((t) => [t.originalEndToEndId, t.status]),
      [
        ['INV-2025-0042', 'ACSP'],
        ['INV-2025-0043', 'RJCT'],
      ],
    );
    assertRule(
      parseMessage('pain002', dropElement(sample('pain002.xml'), 'OrgnlGrpInfAndSts')),
      'required',
      '/Document/CstmrPmtStsRpt/OrgnlGrpInfAndSts',
    );
  });

  it('camt.052/053/054: accounts, balances and entries', () => {
    const stmt = ok(parseMessage('camt053', sample('camt053.xml'))).reports[0]!;
    assert.equal(stmt.accountIban, 'DE89370400440532013000');
    assert.deepEqual(
      stmt.balances.map((b) => [b.type, b.amount.mantissa, b.creditDebit, b.date]),
      [
        ['OPBD', 4821055n, 'CRDT', '2025-03-14'],
        ['CLBD', 4696055n, 'CRDT', '2025-03-14'],
      ],
    );
    assert.deepEqual(
      stmt.entries.map((e) => [e.amount.mantissa, e.creditDebit, e.status, e.bookingDate]),
      [[125000n, 'DBIT', 'BOOK', '2025-03-14']],
    );
    assert.equal(
      ok(parseMessage('camt052', sample('camt052.xml'))).reports[0]?.entries[0]?.amount.mantissa,
      9995n,
    );
    assert.equal(
      ok(parseMessage('camt054', sample('camt054.xml'))).reports[0]?.entries[0]?.creditDebit,
      'CRDT',
    );
    const noBalance = dropElement(dropElement(sample('camt053.xml'), 'Bal'), 'Bal');
    assertRule(parseMessage('camt053', noBalance), 'required', '/Document/BkToCstmrStmt/Stmt/Bal');
    assertRule(
      parseMessage('camt054', edit(sample('camt054.xml'), '<CdtDbtInd>CRDT', '<CdtDbtInd>PLUS')),
      'code_unknown',
      '/Document/BkToCstmrDbtCdtNtfctn/Ntfctn/Ntry/CdtDbtInd',
    );
  });

  it('head.001: a bare AppHdr', () => {
    const h = ok(parseMessage('head001', sample('head001.xml'))).header;
    assert.deepEqual(
      [h.fromBic, h.toBic, h.businessMessageId, h.messageDefinitionId, h.possibleDuplicate],
      ['DEUTDEFFXXX', 'NWBKGB2LXXX', 'DEUT-BAH-20250314-000118', 'pacs.008.001.09', false],
    );
    assertRule(
      parseMessage('head001', dropElement(sample('head001.xml'), 'CreDt')),
      'required',
      '/AppHdr/CreDt',
    );
    assertCode(parseMessage('head001', sample('pacs008.xml')), 'iso_message_mismatch');
    assertCode(parseMessage('pacs008', sample('head001.xml')), 'iso_message_mismatch');
  });
});

describe('securities and collateral messages', () => {
  it('sese.023: ISIN, quantity, dates, parties, accounts, cash leg and payment type', () => {
    const m = ok(parseMessage('sese023', sample('sese023.xml')));
    assert.deepEqual(
      [m.transactionId, m.movement, m.payment, m.paymentType],
      ['COBA-SETI-20250312-0007', 'DELI', 'APMT', 'DVP'],
    );
    assert.deepEqual([m.tradeDate, m.settlementDate, m.isin], ['2025-03-12', '2025-03-14', 'DE0001102580']);
    assert.deepEqual(m.quantity, { type: 'face_amount', value: { mantissa: 5000000n, scale: 0 } });
    assert.deepEqual([m.safekeepingAccount, m.cashAccountIban], ['COBA-SAFE-7001', 'DE89370400440532013000']);
    assert.deepEqual(m.delivering, {
      depositoryBic: 'DAKVDEFFXXX',
      partyBic: 'COBADEFFXXX',
      partySafekeepingAccount: 'COBA-SAFE-7001',
    });
    assert.equal(m.receiving?.partyBic, 'DEUTDEFFXXX');
    assert.equal(m.settlementAmount?.mantissa, 498750000n);
    const root = '/Document/SctiesSttlmTxInstr';
    const s = sample('sese023.xml');
    const rvp = ok(parseMessage('sese023', edit(s, '<SctiesMvmntTp>DELI', '<SctiesMvmntTp>RECE')));
    assert.equal(rvp.paymentType, 'RVP');
    const fop = ok(parseMessage('sese023', edit(dropElement(s, 'SttlmAmt'), '<Pmt>APMT', '<Pmt>FREE')));
    assert.deepEqual([fop.paymentType, fop.settlementAmount], ['FOP', undefined]);
    assertRule(parseMessage('sese023', dropElement(s, 'SttlmAmt')), 'required', `${root}/SttlmAmt/Amt`);
    assertRule(
      parseMessage('sese023', edit(s, 'DE0001102580', 'DE0001102581')),
      'isin_checksum',
      `${root}/FinInstrmId/ISIN`,
    );
    assertRule(
      parseMessage('sese023', dropElement(s, 'SttlmDt')),
      'required',
      `${root}/TradDtls/SttlmDt/Dt/Dt`,
    );
    assertRule(
      parseMessage('sese023', edit(s, '<FaceAmt>5000000', '<FaceAmt>-5')),
      'quantity_format',
      `${root}/QtyAndAcctDtls/SttlmQty/Qty/FaceAmt`,
    );
  });

  it('sese.024: ids and the chosen statuses with reasons', () => {
    const m = ok(parseMessage('sese024', sample('sese024.xml')));
    assert.equal(m.accountOwnerTransactionId, 'COBA-SETI-20250312-0007');
    assert.deepEqual(m.processingStatus, { status: 'AckdAccptd', reasonCode: 'NORE' });
    assert.deepEqual(m.matchingStatus, { status: 'Mtchd', reasonCode: undefined });
    assert.equal(m.settlementStatus, undefined);
    const noStatus = dropElement(dropElement(sample('sese024.xml'), 'PrcgSts'), 'MtchgSts');
    assertRule(parseMessage('sese024', noStatus), 'required', '/Document/SctiesSttlmTxStsAdvc/PrcgSts');
  });

  it('sese.025: confirmation with the effective settlement date and settled quantity', () => {
    const m = ok(parseMessage('sese025', sample('sese025.xml')));
    assert.deepEqual(
      [m.accountOwnerTransactionId, m.paymentType, m.effectiveSettlementDate],
      ['COBA-SETI-20250312-0007', 'DVP', '2025-03-14'],
    );
    assert.equal(m.settledQuantity.value.mantissa, 5000000n);
    assert.equal(m.settledAmount?.text, '4987500.00');
    assertRule(
      parseMessage('sese025', dropElement(sample('sese025.xml'), 'FctvSttlmDt')),
      'required',
      '/Document/SctiesSttlmTxConf/TradDtls/FctvSttlmDt/Dt/Dt',
    );
  });

  it('colr.010: collateral returned and offered, with ids and quantities', () => {
    const m = ok(parseMessage('colr010', sample('colr010.xml')));
    assert.deepEqual([m.obligation.partyABic, m.obligation.valuationDate], ['COBADEFFXXX', '2025-03-14']);
    const lines = (side: typeof m.returned) =>
      side.securities.map((s) => [s.collateralId, s.isin, s.quantity.value.mantissa]);
    assert.deepEqual(lines(m.returned), [['COLL-BUND-0001', 'DE0001102580', 5000000n]]);
    assert.deepEqual(m.offered && lines(m.offered), [['COLL-OAT-0002', 'FR0013508470', 5100000n]]);
    assertRule(
      parseMessage('colr010', dropElement(sample('colr010.xml'), 'CollSbstitnRtr')),
      'required',
      '/Document/CollSbstitnReq/CollSbstitnRtr',
    );
  });

  it('colr.012: confirmation of a substitution request', () => {
    const m = ok(parseMessage('colr012', sample('colr012.xml')));
    assert.deepEqual(
      [m.transactionId, m.requestId, m.responseId, m.confirmationType],
      ['DEUT-SUBCONF-0314-01', 'COBA-SUBREQ-0314-01', 'DEUT-SUBRSP-0314-01', 'CREL'],
    );
    assertRule(
      parseMessage('colr012', edit(sample('colr012.xml'), '<ConfTp>CREL', '<ConfTp>DONE')),
      'code_unknown',
      '/Document/CollSbstitnConf/SbstitnConf/ConfTp',
    );
    assertRule(
      parseMessage('colr012', dropElement(sample('colr012.xml'), 'PtyB')),
      'required',
      '/Document/CollSbstitnConf/Oblgtn/PtyB',
    );
  });
});

describe('parseMessage entry point', () => {
  it('lists every supported kind', () => {
    assert.deepEqual([...MESSAGE_KINDS].sort(), [
      'camt052',
      'camt053',
      'camt054',
      'camt056',
      'colr010',
      'colr012',
      'head001',
      'pacs002',
      'pacs004',
      'pacs007',
      'pacs008',
      'pacs009',
      'pacs028',
      'pacs029',
      'pain001',
      'pain002',
      'sese023',
      'sese024',
      'sese025',
    ]);
  });

  it('refuses bodies that are neither XML nor a flat object, and unknown kinds', () => {
    assertCode(parseMessage('pacs008', 'hello'), 'iso_input_invalid');
    assertCode(parseMessage('pacs008', ''), 'iso_input_invalid');
    assertCode(parseMessage('pacs008', [] as unknown as object), 'iso_input_invalid');
    assertCode(parseMessage('pacs008', Buffer.from(sample('pacs008.xml'))), 'iso_input_invalid');
    assertCode(parseMessage('pacs999' as 'pacs008', sample('pacs008.xml')), 'iso_unsupported_message');
  });
});
