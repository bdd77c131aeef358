import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertCode,
  assertRule,
  dropElement,
  edit,
  errorsOf,
  ok,
  sample,
} from '../../../test/fixtures/iso20022/samples-fixture.js';
import { parseMessage } from './parse.js';
import { EMPTY_REFERENCE_DATA } from './reference-data.js';
import { resolve } from './resolve.js';

const TX = '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf';
const base = sample('pacs008.xml');
const parse = (xml: string) => parseMessage('pacs008', xml);
/** The IBANs are required at resolution, where the operator's switch is known (resolve.ts). */
const resolved = (xml: string) => resolve(ok(parse(xml)), EMPTY_REFERENCE_DATA);

describe('pacs.008 extraction', () => {
  it('reads every mapped field of the sample', () => {
    const m = ok(parse(base));
    assert.equal(m.kind, 'pacs008');
    assert.equal(m.messageDefinitionId, 'pacs.008.001.09');
    assert.equal(m.messageId, 'DEUT-P008-20250314-000117');
    assert.equal(m.creationTime, '2025-03-14T09:30:12.345+01:00');
    assert.equal(m.transactions.length, 1);
    const t = m.transactions[0]!;
    assert.deepEqual(
      [t.instructionId, t.endToEndId, t.transactionId, t.uetr],
      ['DEUT-INSTR-000117', 'INV-2025-0042', 'DEUT-TX-000117', '0f4c6d7e-3a2b-4c1d-9e8f-7a6b5c4d3e2f'],
    );
    assert.deepEqual(t.amount, { currency: 'EUR', text: '1250.00', mantissa: 125000n, scale: 2 });
    assert.equal(t.settlementDate, '2025-03-14');
    assert.deepEqual([t.debtorIban, t.creditorIban], ['DE89370400440532013000', 'GB29NWBK60161331926819']);
    assert.deepEqual([t.debtorBic, t.creditorBic], ['DEUTDEFFXXX', 'NWBKGB2LXXX']);
    assert.deepEqual(
      [t.debtorName, t.creditorName],
      ['Muster Maschinenbau GmbH', 'Thames Precision Components Ltd'],
    );
    assert.equal(t.paths.debtorIban, `${TX}/DbtrAcct/Id/IBAN`);
  });

  it('reads an enveloped message with its AppHdr, indexed transactions and the group settlement date', () => {
    const m = ok(parse(sample('pacs008-envelope.xml')));
    assert.equal(m.appHeader?.businessMessageId, 'DEUT-BAH-20250314-000118');
    assert.equal(m.appHeader?.fromBic, 'DEUTDEFFXXX');
    assert.equal(m.transactions.length, 2);
    const [first, second] = m.transactions;
    assert.equal(first?.settlementDate, '2025-03-14'); // from GrpHdr/IntrBkSttlmDt
    assert.equal(first?.paths.settlementDate, '/Document/FIToFICstmrCdtTrf/GrpHdr/IntrBkSttlmDt');
    assert.equal(second?.settlementDate, '2025-03-17'); // its own date wins
    assert.equal(second?.paths.debtorIban, `${TX}[2]/DbtrAcct/Id/IBAN`);
  });

  describe('required fields (src/modules/iso20022/README.md "Field mapping"), each reported at its path', () => {
    const cases: Array<[string, string, string]> = [
      ['message id', dropElement(base, 'MsgId'), '/Document/FIToFICstmrCdtTrf/GrpHdr/MsgId'],
      ['amount', dropElement(base, 'IntrBkSttlmAmt'), `${TX}/IntrBkSttlmAmt`],
      ['currency', edit(base, ' Ccy="EUR"', ''), `${TX}/IntrBkSttlmAmt/@Ccy`],
      ['settlement date', dropElement(base, 'IntrBkSttlmDt'), `${TX}/IntrBkSttlmDt`],
      ['debtor IBAN', dropElement(base, 'DbtrAcct'), `${TX}/DbtrAcct/Id/IBAN`],
      ['creditor IBAN', dropElement(base, 'CdtrAcct'), `${TX}/CdtrAcct/Id/IBAN`],
      ['debtor BIC', dropElement(base, 'DbtrAgt'), `${TX}/DbtrAgt/FinInstnId/BICFI`],
      ['creditor BIC', dropElement(base, 'CdtrAgt'), `${TX}/CdtrAgt/FinInstnId/BICFI`],
      ['creation time', dropElement(base, 'CreDtTm'), '/Document/FIToFICstmrCdtTrf/GrpHdr/CreDtTm'],
      ['end-to-end id', dropElement(base, 'EndToEndId'), `${TX}/PmtId/EndToEndId`],
    ];
    for (const [name, xml, path] of cases) {
      it(`missing ${name}`, () =>
        assertRule((name.endsWith('IBAN') ? resolved : parse)(xml), 'required', path));
    }
  });

  it('collects every failure of a message, not only the first', () => {
    let xml = edit(base, 'DE89370400440532013000', 'DE89370400440532013001');
    xml = edit(xml, 'NWBKGB2LXXX', 'NWBK1234');
    xml = edit(xml, '<IntrBkSttlmDt>2025-03-14', '<IntrBkSttlmDt>2025-02-30');
    const rules = errorsOf(parse(xml)).map((e) => ('rule' in e ? e.rule : e.code));
    assert.deepEqual(rules.sort(), ['bic_format', 'date_invalid', 'iban_checksum']);
  });

  it('refuses bad IBANs, BICs, currencies, amounts and dates with their rule and path', () => {
    assertRule(
      parse(edit(base, 'GB29NWBK60161331926819', 'GB28NWBK60161331926819')),
      'iban_checksum',
      `${TX}/CdtrAcct/Id/IBAN`,
    );
    assertRule(
      parse(edit(base, 'DE89370400440532013000', 'DE8937040044053201300')),
      'iban_length',
      `${TX}/DbtrAcct/Id/IBAN`,
    );
    assertRule(
      parse(edit(base, 'DEUTDEFFXXX', 'DEUTQQFFXXX')),
      'bic_country',
      `${TX}/DbtrAgt/FinInstnId/BICFI`,
    );
    assertRule(parse(edit(base, 'DEUTDEFFXXX', 'DEUT1EFF')), 'bic_format', `${TX}/DbtrAgt/FinInstnId/BICFI`);
    assertRule(parse(edit(base, 'Ccy="EUR"', 'Ccy="EUX"')), 'currency_unknown', `${TX}/IntrBkSttlmAmt/@Ccy`);
    assertRule(
      parse(edit(base, 'Ccy="EUR">1250.00', 'Ccy="JPY">1250.5')),
      'amount_precision',
      `${TX}/IntrBkSttlmAmt`,
    );
    assertRule(parse(edit(base, '>1250.00<', '>1.25E3<')), 'amount_format', `${TX}/IntrBkSttlmAmt`);
    assertRule(parse(edit(base, '>1250.00<', '>0.00<')), 'amount_not_positive', `${TX}/IntrBkSttlmAmt`);
    assertRule(
      parse(edit(base, '<IntrBkSttlmDt>2025-03-14', '<IntrBkSttlmDt>14.03.2025')),
      'date_format',
      `${TX}/IntrBkSttlmDt`,
    );
    assertRule(
      parse(edit(base, 'T09:30:12.345+01:00', 'T25:30:12+01:00')),
      'datetime_invalid',
      '/Document/FIToFICstmrCdtTrf/GrpHdr/CreDtTm',
    );
    assertRule(parse(edit(base, '<UETR>0f4c', '<UETR>XX4c')), 'uuid_format', `${TX}/PmtId/UETR`);
    assertRule(
      parse(edit(base, '<NbOfTxs>1<', '<NbOfTxs>2<')),
      'count_mismatch',
      '/Document/FIToFICstmrCdtTrf/GrpHdr/NbOfTxs',
    );
    assertRule(parse(edit(base, 'INV-2025-0042', 'X'.repeat(36))), 'text_length', `${TX}/PmtId/EndToEndId`);
  });

  it('takes a JPY amount without decimals as minor units with scale 0', () => {
    const m = ok(parse(edit(base, 'Ccy="EUR">1250.00', 'Ccy="JPY">125000')));
    assert.deepEqual(m.transactions[0]?.amount, {
      currency: 'JPY',
      text: '125000',
      mantissa: 125000n,
      scale: 0,
    });
  });

  it('refuses another message kind, an unsupported version and a missing message element', () => {
    assertCode(parseMessage('pacs009', base), 'iso_message_mismatch');
    assertCode(parse(edit(base, 'pacs.008.001.09', 'pacs.008.001.02')), 'iso_unsupported_message');
    assertRule(
      parse(edit(edit(base, '<FIToFICstmrCdtTrf>', '<Other>'), '</FIToFICstmrCdtTrf>', '</Other>')),
      'required',
      '/Document/FIToFICstmrCdtTrf',
    );
  });

  it('checks the AppHdr: MsgDefIdr must match the Document', () => {
    const env = sample('pacs008-envelope.xml');
    assertRule(
      parse(edit(env, '<MsgDefIdr>pacs.008.001.09', '<MsgDefIdr>pacs.008.001.08')),
      'msgdef_mismatch',
      '/AppHdr/MsgDefIdr',
    );
    assertRule(
      parse(edit(env, '<MsgDefIdr>pacs.008.001.09', '<MsgDefIdr>PACS008')),
      'msgdef_format',
      '/AppHdr/MsgDefIdr',
    );
    assertRule(parse(dropElement(env, 'BizMsgIdr')), 'required', '/AppHdr/BizMsgIdr');
  });
});

describe('pacs.008 ledger pins', () => {
  const env = sample('pacs008-envelope.xml');
  const DOC_PINS = '/Document/FIToFICstmrCdtTrf/SplmtryData/Envlp/Ledger';

  it('merges document-level and transaction-level pins, matched by local name in any namespace', () => {
    const [first, second] = ok(parse(env)).transactions;
    assert.deepEqual(first?.pins, {
      ledger_id: 'torana-main',
      source_account_id: 'muster-maschinenbau@de',
      target_account_id: 'thames-precision@gb',
      asset_definition_id: 'eur#bank',
    });
    assert.equal(first?.paths.pins.ledger_id, `${DOC_PINS}/LedgerId`);
    assert.equal(first?.paths.pins.source_account_id, `${TX}[1]/SplmtryData/Envlp/Ledger/SourceAccountId`);
    assert.deepEqual(second?.pins, {
      ledger_id: 'torana-main',
      source_account_id: undefined,
      target_account_id: undefined,
      asset_definition_id: 'eur#bank',
    });
  });

  it('lets the transaction level win per field', () => {
    const xml = edit(
      env,
      '<tl:SourceAccountId>',
      '<tl:AssetDefinitionId>usd#bank</tl:AssetDefinitionId><tl:SourceAccountId>',
    );
    const [first, second] = ok(parse(xml)).transactions;
    assert.equal(first?.pins.asset_definition_id, 'usd#bank');
    assert.equal(
      first?.paths.pins.asset_definition_id,
      `${TX}[1]/SplmtryData/Envlp/Ledger/AssetDefinitionId`,
    );
    assert.equal(second?.pins.asset_definition_id, 'eur#bank');
  });

  it('refuses malformed and duplicate pin blocks', () => {
    assertRule(
      parse(edit(env, '<LedgerId>torana-main', '<LedgerId>torana main')),
      'pin_format',
      `${DOC_PINS}/LedgerId`,
    );
    const twice = edit(
      env,
      '</FIToFICstmrCdtTrf>',
      '<SplmtryData><Envlp><Ledger><LedgerId>b</LedgerId></Ledger></Envlp></SplmtryData></FIToFICstmrCdtTrf>',
    );
    assertRule(parse(twice), 'pin_duplicate', '/Document/FIToFICstmrCdtTrf/SplmtryData[2]/Envlp/Ledger');
  });
});
