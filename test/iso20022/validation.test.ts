// Every validation rule through the routes (listed in src/modules/iso20022/README.md):
// malformed input is 400 and business rules 422, each with the XPath
// of the failing field and the rule in `details`; never 403 for everything, never a 5xx. The node has
// reference data (BIC, IBAN and currency crosswalks) configured.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type BridgeNode,
  EUR,
  IBAN,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
  writeReferenceData,
} from './bridge-fixture.js';
import { edited, pacs008, pacs008Sample, pacs009Sample, sample } from './messages.js';

const TX = '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf';

describe('ISO 20022 bridge: validation through the routes', () => {
  let b: BridgeNode;
  let refDir: string;
  before(async () => {
    refDir = await mkdtemp(join(tmpdir(), 'torana-ref-'));
    await writeReferenceData(refDir);
    b = await startBridgeNode({ 'iso20022.reference_data_dir': refDir });
  });
  after(async () => {
    await b.stopAll();
    await rm(refDir, { recursive: true, force: true });
  });

  async function refused(
    kind: string,
    body: string | object,
    status: number,
    code: string,
    rule?: string,
    path?: string,
  ) {
    const r = await post(b, kind, body);
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.code, code, JSON.stringify(r.body));
    if (rule !== undefined) assert.equal(r.body.details.rule, rule, JSON.stringify(r.body.details));
    if (path !== undefined) assert.equal(r.body.details.path, path);
    assert.ok(Array.isArray(r.body.details.errors ?? []));
    return r.body;
  }

  it('resolves accounts and asset from the crosswalks when nothing is pinned', async () => {
    const r = await post(b, 'pacs008', pacs008('XWALK-1', [{ e2e: 'X-1', amount: '5.00' }]));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.source_account_id, b.alice.id);
    assert.equal(r.body.target_account_id, b.bob.id);
    assert.equal(r.body.asset_definition_id, EUR);
    assert.equal((await waitFor(b, 'XWALK-1', settledOrRejected)).pacs002_code, 'ACSC');
  });

  it('IBAN checksum, BIC, currency, precision, date and required fields: 400 with path and rule', async () => {
    const bad = (msgId: string, t: Parameters<typeof pacs008>[1][number]) => pacs008(msgId, [t]);
    await refused(
      'pacs008',
      bad('V-1', { e2e: 'e', amount: '1.00', debtorIban: 'DE89370400440532013001' }),
      400,
      'iso_validation_failed',
      'iban_checksum',
      `${TX}/DbtrAcct/Id/IBAN`,
    );
    await refused(
      'pacs008',
      bad('V-2', { e2e: 'e', amount: '1.00', creditorBic: 'NWBK1234' }),
      400,
      'iso_validation_failed',
      'bic_format',
      `${TX}/CdtrAgt/FinInstnId/BICFI`,
    );
    await refused(
      'pacs008',
      bad('V-3', { e2e: 'e', amount: '1.00', ccy: 'XYZ' }),
      400,
      'iso_validation_failed',
      'currency_unknown',
      `${TX}/IntrBkSttlmAmt/@Ccy`,
    );
    await refused(
      'pacs008',
      bad('V-4', { e2e: 'e', amount: '100.5', ccy: 'JPY' }),
      400,
      'iso_validation_failed',
      'amount_precision',
      `${TX}/IntrBkSttlmAmt`,
    );
    const noDate = edited(bad('V-5', { e2e: 'e', amount: '1.00' }), [
      ['<IntrBkSttlmDt>2025-03-14</IntrBkSttlmDt>', '<IntrBkSttlmDt>2025-02-30</IntrBkSttlmDt>'],
    ]);
    await refused('pacs008', noDate, 400, 'iso_validation_failed', 'date_invalid', `${TX}/IntrBkSttlmDt`);
    const noE2e = edited(bad('V-6', { e2e: 'E2E-GONE', amount: '1.00' }), [
      ['<EndToEndId>E2E-GONE</EndToEndId>', ''],
    ]);
    await refused('pacs008', noE2e, 400, 'iso_validation_failed', 'required', `${TX}/PmtId/EndToEndId`);
    const count = edited(bad('V-7', { e2e: 'e', amount: '1.00' }), [
      ['<NbOfTxs>1</NbOfTxs>', '<NbOfTxs>2</NbOfTxs>'],
    ]);
    await refused(
      'pacs008',
      count,
      400,
      'iso_validation_failed',
      'count_mismatch',
      '/Document/FIToFICstmrCdtTrf/GrpHdr/NbOfTxs',
    );
  });

  it('reports every failing field of a message, not only the first', async () => {
    const body = await refused(
      'pacs008',
      pacs008('V-8', [{ e2e: 'e', amount: '1.00', debtorIban: 'XX00', creditorBic: 'bad' }]),
      400,
      'iso_validation_failed',
    );
    const paths = (body.details.errors as Array<{ path: string }>).map((e) => e.path);
    assert.ok(
      paths.includes(`${TX}/DbtrAcct/Id/IBAN`) && paths.includes(`${TX}/CdtrAgt/FinInstnId/BICFI`),
      paths.join(),
    );
  });

  it('business rules are 422: Purp other than SECU, crosswalk mismatch, unresolved account', async () => {
    const pins = { source: b.carol.id, target: b.bob.id, asset: EUR };
    await refused(
      'pacs009',
      pacs009Sample('P9-BAD', pins, '<Purp><Cd>INTC</Cd></Purp>'),
      422,
      'iso_business_rule_failed',
      'purpose_not_secu',
      '/Document/FICdtTrf/CdtTrfTxInf/Purp/Cd',
    );
    // The IBAN crosswalk maps the debtor IBAN to alice; a pin naming carol contradicts it.
    const mismatch = pacs008Sample('XW-BAD', { source: b.carol.id });
    await refused(
      'pacs008',
      mismatch,
      422,
      'iso_business_rule_failed',
      'crosswalk_mismatch',
      '/Document/FIToFICstmrCdtTrf/SplmtryData/Envlp/Ledger/SourceAccountId',
    );
    const unknownIban = pacs008('XW-UNK', [
      { e2e: 'e', amount: '1.00', creditorIban: 'NL91ABNA0417164300', creditorBic: 'NWBKGB2LXXX' },
    ]);
    await refused(
      'pacs008',
      unknownIban,
      422,
      'iso_business_rule_failed',
      'account_unresolved',
      `${TX}/CdtrAcct/Id/IBAN`,
    );
    const foreign = pacs008('XW-LEDGER', [{ e2e: 'e', amount: '1.00', pins: { ledger: 'another-ledger' } }]);
    await refused(
      'pacs008',
      foreign,
      422,
      'iso_business_rule_failed',
      'crosswalk_mismatch',
      `${TX}/SplmtryData/Envlp/Ledger/LedgerId`,
    );
    const noAsset = pacs008('XW-ASSET', [{ e2e: 'e', amount: '1.00', pins: { asset: 'gold#nowhere' } }]);
    await refused('pacs008', noAsset, 422, 'iso_business_rule_failed', 'crosswalk_mismatch');
  });

  it('details.errors[] gives each rule one code: unresolved account and asset read like an unknown original', async () => {
    const usd = pacs008('XW-CODES', [
      {
        e2e: 'e',
        amount: '1.00',
        ccy: 'USD',
        creditorIban: 'NL91ABNA0417164300',
        creditorBic: 'NWBKGB2LXXX',
      },
    ]);
    const body = await refused('pacs008', usd, 422, 'iso_business_rule_failed', 'account_unresolved');
    const entries = body.details.errors.map((e: { code: string; rule: string }) => [e.code, e.rule]);
    assert.deepEqual(entries, [
      ['iso_business_rule_failed', 'account_unresolved'],
      ['iso_business_rule_failed', 'asset_unresolved'],
    ]);
    const stranger = await refused('pacs002', sample('pacs002.xml'), 422, 'iso_business_rule_failed');
    assert.deepEqual(
      stranger.details.errors.map((e: { code: string; rule: string }) => [e.code, e.rule]),
      [['iso_business_rule_failed', 'original_unknown']],
    );
  });

  it('in the flat format, a pin contradicting the IBAN crosswalk is 422 at the field name', async () => {
    const flat = {
      ...JSON.parse(sample('pacs008.flat.json')),
      message_id: 'PIN-BAD',
      source_account_id: b.carol.id,
    };
    delete flat.ledger_id;
    delete flat.asset_definition_id;
    flat.debtor_iban = IBAN.alice;
    await refused(
      'pacs008',
      flat,
      422,
      'iso_business_rule_failed',
      'crosswalk_mismatch',
      'source_account_id',
    );
  });

  it('input of the wrong kind, version or format is 400 (or 415 for a media type the route does not take)', async () => {
    await refused('pacs008', pacs009Sample('KIND-1', {}), 400, 'iso_message_mismatch');
    await refused(
      'pacs008',
      pacs008('OLD-1', [{ e2e: 'e', amount: '1.00' }], undefined, '02'),
      400,
      'iso_unsupported_message',
    );
    await refused(
      'pacs008',
      { ...JSON.parse(sample('pacs008.flat.json')), amount: 12.5 },
      400,
      'iso_validation_failed',
      'field_type',
      'amount',
    );
    await refused('pacs008', 'hello', 400, 'iso_input_invalid');
    await refused(
      'pacs008',
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09"><FIToFICstmrCdtTrf>',
      400,
      'iso_xml_malformed',
    );
    // A well-formed body whose root is not an ISO message says where (docs/errors.md).
    await refused(
      'pacs008',
      '<Invoice><Total>1</Total></Invoice>',
      400,
      'iso_xml_malformed',
      undefined,
      '/Invoice',
    );
    const json = await post(b, 'sese023', { a: '1' });
    assert.equal(json.status, 415);
    assert.equal(json.body.code, 'unsupported_media_type');
  });
});
