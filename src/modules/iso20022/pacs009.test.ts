import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assertRule,
  documentPart,
  dropElement,
  edit,
  ok,
  sample,
} from '../../../test/fixtures/iso20022/samples-fixture.js';
import { parseMessage } from './parse.js';
import { EMPTY_REFERENCE_DATA } from './reference-data.js';
import { resolve } from './resolve.js';

const ROOT = '/Document/FICdtTrf';
const TX = `${ROOT}/CdtTrfTxInf`;
const base = sample('pacs009.xml');
const parse = (xml: string) => parseMessage('pacs009', xml);
/** The IBANs are required at resolution, where the operator's switch is known (resolve.ts). */
const resolved = (xml: string) => resolve(ok(parse(xml)), EMPTY_REFERENCE_DATA);

describe('pacs.009 extraction', () => {
  it('takes the business message id and definition from the AppHdr when present', () => {
    const m = ok(parse(base));
    assert.equal(m.businessMessageId, 'COBA-BAH-20250314-7781');
    assert.equal(m.messageDefinitionId, 'pacs.009.001.09');
    assert.equal(m.messageId, 'COBA-P009-20250314-7781');
    assert.equal(m.creationTime, '2025-03-14T10:05:00+01:00');
    const t = m.transactions[0]!;
    assert.deepEqual(t.amount, { currency: 'EUR', text: '2500000.00', mantissa: 250000000n, scale: 2 });
    assert.equal(t.settlementDate, '2025-03-14');
    assert.deepEqual([t.instructingAgentBic, t.instructedAgentBic], ['COBADEFFXXX', 'DEUTDEFFXXX']);
    assert.deepEqual([t.debtorIban, t.creditorIban], ['DE89370400440532013000', 'DE44500105175407324931']);
    assert.deepEqual([t.debtorBic, t.creditorBic], ['COBADEFFXXX', 'DEUTDEFFXXX']);
    assert.equal(t.purpose, 'SECU');
  });

  it('falls back to GrpHdr/MsgId and the namespace without an AppHdr', () => {
    const m = ok(parse(documentPart(base)));
    assert.equal(m.appHeader, undefined);
    assert.equal(m.businessMessageId, 'COBA-P009-20250314-7781');
    assert.equal(m.messageDefinitionId, 'pacs.009.001.09');
  });

  it('prefers transaction-level agents over the group header', () => {
    const xml = edit(
      base,
      '<IntrBkSttlmDt>',
      '<InstgAgt><FinInstnId><BICFI>BNPAFRPPXXX</BICFI></FinInstnId></InstgAgt><IntrBkSttlmDt>',
    );
    // InstgAgt must follow IntrBkSttlmDt in the schema; the reader does not depend on order.
    const t = ok(parse(xml)).transactions[0]!;
    assert.equal(t.instructingAgentBic, 'BNPAFRPPXXX');
    assert.equal(t.paths.instructingAgentBic, `${TX}/InstgAgt/FinInstnId/BICFI`);
    assert.equal(t.instructedAgentBic, 'DEUTDEFFXXX');
  });

  describe('required fields (src/modules/iso20022/README.md "Field mapping"), each reported at its path', () => {
    const doc = documentPart(base);
    const cases: Array<[string, string, string]> = [
      ['business message id (no AppHdr)', dropElement(doc, 'MsgId'), `${ROOT}/GrpHdr/MsgId`],
      ['business message id (AppHdr)', dropElement(base, 'BizMsgIdr'), '/AppHdr/BizMsgIdr'],
      ['message definition id (AppHdr)', dropElement(base, 'MsgDefIdr'), '/AppHdr/MsgDefIdr'],
      ['creation time', dropElement(doc, 'CreDtTm'), `${ROOT}/GrpHdr/CreDtTm`],
      ['amount', dropElement(base, 'IntrBkSttlmAmt'), `${TX}/IntrBkSttlmAmt`],
      ['currency', edit(base, ' Ccy="EUR"', ''), `${TX}/IntrBkSttlmAmt/@Ccy`],
      ['settlement date', dropElement(base, 'IntrBkSttlmDt'), `${TX}/IntrBkSttlmDt`],
      ['instructing agent BIC', dropElement(base, 'InstgAgt'), `${TX}/InstgAgt/FinInstnId/BICFI`],
      ['instructed agent BIC', dropElement(base, 'InstdAgt'), `${TX}/InstdAgt/FinInstnId/BICFI`],
      ['debtor IBAN', dropElement(base, 'DbtrAcct'), `${TX}/DbtrAcct/Id/IBAN`],
      ['creditor IBAN', dropElement(base, 'CdtrAcct'), `${TX}/CdtrAcct/Id/IBAN`],
    ];
    for (const [name, xml, path] of cases) {
      it(`missing ${name}`, () =>
        assertRule((name.endsWith('IBAN') ? resolved : parse)(xml), 'required', path));
    }
  });

  it('accepts a missing Purp and refuses any purpose but SECU', () => {
    assert.equal(ok(parse(dropElement(base, 'Purp'))).transactions[0]?.purpose, undefined);
    assertRule(parse(edit(base, '<Cd>SECU</Cd>', '<Cd>CASH</Cd>')), 'purpose_not_secu', `${TX}/Purp/Cd`);
    assertRule(
      parse(edit(base, '<Cd>SECU</Cd>', '<Prtry>SECU</Prtry>')),
      'purpose_not_secu',
      `${TX}/Purp/Prtry`,
    );
  });

  it('refuses an AppHdr in an unknown namespace or naming another definition', () => {
    assertRule(parse(edit(base, 'head.001.001.02', 'head.999.001.02')), 'namespace_unknown', '/AppHdr');
    assertRule(
      parse(edit(base, '<MsgDefIdr>pacs.009.001.09', '<MsgDefIdr>pacs.008.001.09')),
      'msgdef_mismatch',
      '/AppHdr/MsgDefIdr',
    );
  });

  it('applies the same field rules as pacs.008', () => {
    assertRule(
      parse(edit(base, 'DE44500105175407324931', 'DE44500105175407324932')),
      'iban_checksum',
      `${TX}/CdtrAcct/Id/IBAN`,
    );
    assertRule(
      parse(edit(base, 'Ccy="EUR">2500000.00', 'Ccy="BHD">2500000.1234')),
      'amount_precision',
      `${TX}/IntrBkSttlmAmt`,
    );
    assertRule(
      parse(edit(base, 'Ccy="EUR"', 'Ccy="XAU"')),
      'currency_no_minor_unit',
      `${TX}/IntrBkSttlmAmt/@Ccy`,
    );
    assertRule(
      parse(
        edit(
          base,
          '<BICFI>COBADEFFXXX</BICFI>\n          </FinInstnId>\n        </InstgAgt>',
          '<BICFI>cobadeff</BICFI></FinInstnId></InstgAgt>',
        ),
      ),
      'bic_format',
      `${ROOT}/GrpHdr/InstgAgt/FinInstnId/BICFI`,
    );
  });
});
