import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  assertRule,
  documentPart,
  edit,
  errorsOf,
  ok,
  sample,
  sampleJson,
} from '../../../test/fixtures/iso20022/samples-fixture.js';
import { parseMessage } from './parse.js';
import {
  buildReferenceData,
  EMPTY_REFERENCE_DATA,
  loadReferenceData,
  type ReferenceData,
} from './reference-data.js';
import { resolve } from './resolve.js';

const TX = '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf';
const FILES = {
  bic: {
    DEUTDEFF: { ledger_id: 'torana-main', account_ids: ['muster-maschinenbau@de'] },
    NWBKGB2LXXX: { ledger_id: 'torana-main' },
  },
  iban: { DE89370400440532013000: 'muster-maschinenbau@de', GB29NWBK60161331926819: 'thames-precision@gb' },
  currency: { EUR: 'eur#bank', GBP: 'gbp#bank' },
};

function refData(files: Parameters<typeof buildReferenceData>[0] = FILES): ReferenceData {
  const r = buildReferenceData(files);
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

const pacs008 = (xml = sample('pacs008.xml')) => ok(parseMessage('pacs008', xml));

describe('reference data files', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'iso-ref-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the three crosswalks from a directory, missing files being empty', async () => {
    writeFileSync(join(dir, 'bic.json'), JSON.stringify(FILES.bic));
    writeFileSync(join(dir, 'currency.json'), JSON.stringify(FILES.currency));
    const r = await loadReferenceData(dir);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.value.bics.get('DEUTDEFFXXX')?.ledgerId, 'torana-main'); // BIC8 key stored as BIC11
    assert.equal(r.value.ibans.size, 0);
    assert.equal(r.value.currencies.get('EUR'), 'eur#bank');
  });

  it('reports unreadable JSON with the file name', async () => {
    writeFileSync(join(dir, 'iban.json'), '{ not json');
    const r = await loadReferenceData(dir);
    assert.ok(!r.ok);
    assert.equal(r.errors[0] && 'path' in r.errors[0] ? r.errors[0].path : '', 'iban.json');
  });

  it('validates every key and value, reporting file/key paths', () => {
    const r = buildReferenceData({
      bic: { DEUTDEF: {}, NWBKGB2L: { ledger_id: 7 }, BNPAFRPP: { account_ids: 'x' } },
      iban: { DE89370400440532013001: 'a', GB29NWBK60161331926819: 'has space' },
      currency: { EURO: 'x', USD: '' },
    });
    assert.ok(!r.ok);
    const got = r.errors.map((e) => `${'rule' in e ? e.rule : e.code} ${e.path}`).sort();
    assert.deepEqual(got, [
      'bic_format bic.json/DEUTDEF',
      'currency_format currency.json/EURO',
      'field_type bic.json/BNPAFRPP/account_ids',
      'field_type bic.json/NWBKGB2L/ledger_id',
      'iban_checksum iban.json/DE89370400440532013001',
      'pin_format currency.json/USD',
      'pin_format iban.json/GB29NWBK60161331926819',
    ]);
  });
});

describe('resolve', () => {
  it('resolves from the crosswalks when the message pins nothing', () => {
    const r = resolve(pacs008(), refData());
    assert.deepEqual(r, {
      ok: true,
      contexts: [
        {
          ledger_id: 'torana-main',
          source_account_id: 'muster-maschinenbau@de',
          target_account_id: 'thames-precision@gb',
          asset_definition_id: 'eur#bank',
        },
      ],
    });
  });

  it('resolves from the pins alone without reference data', () => {
    const m = ok(parseMessage('pacs008', sampleJson('pacs008.flat.json')));
    const pinned = { ...sampleJson('pacs008.flat.json'), source_account_id: 'a@x', target_account_id: 'b@y' };
    assert.equal(resolve(m, EMPTY_REFERENCE_DATA).ok, false);
    const r = resolve(ok(parseMessage('pacs008', pinned)), EMPTY_REFERENCE_DATA);
    assert.ok(r.ok);
    assert.deepEqual(r.contexts[0], {
      ledger_id: 'torana-main',
      source_account_id: 'a@x',
      target_account_id: 'b@y',
      asset_definition_id: 'eur#bank',
    });
  });

  it('reports what cannot be resolved at the field that would have resolved it', () => {
    const r = resolve(pacs008(), EMPTY_REFERENCE_DATA);
    assertRule(r, 'ledger_unresolved', `${TX}/DbtrAgt/FinInstnId/BICFI`);
    assertRule(r, 'account_unresolved', `${TX}/DbtrAcct/Id/IBAN`);
    assertRule(r, 'account_unresolved', `${TX}/CdtrAcct/Id/IBAN`);
    assertRule(r, 'asset_unresolved', `${TX}/IntrBkSttlmAmt/@Ccy`);
  });

  it('treats a pin that contradicts the crosswalk as a mismatch', () => {
    const env = sample('pacs008-envelope.xml');
    const one = documentPart(
      edit(env, /<CdtTrfTxInf>\s*<PmtId>\s*<EndToEndId>INV-2025-0044[\s\S]*?<\/CdtTrfTxInf>/, ''),
    );
    const m = pacs008(edit(one, '<NbOfTxs>2', '<NbOfTxs>1'));
    assert.equal(resolve(m, refData()).ok, true); // the sample's pins agree with the crosswalks
    const differing = edit(
      edit(one, '>muster-maschinenbau@de<', '>other@de<'),
      '>thames-precision@gb<',
      '>other@gb<',
    );
    const r = resolve(pacs008(edit(differing, '<NbOfTxs>2', '<NbOfTxs>1')), refData());
    assertRule(r, 'crosswalk_mismatch', `${TX}/SplmtryData/Envlp/Ledger/SourceAccountId`);
    assertRule(r, 'crosswalk_mismatch', `${TX}/SplmtryData/Envlp/Ledger/TargetAccountId`);
    const ledger = resolve(
      m,
      refData({ ...FILES, iban: {}, bic: { DEUTDEFF: { ledger_id: 'other' } }, currency: {} }),
    );
    assertRule(ledger, 'crosswalk_mismatch', '/Document/FIToFICstmrCdtTrf/SplmtryData/Envlp/Ledger/LedgerId');
    // The flat form reports the same mismatch at the field name: eur#bank pinned, GBP maps to gbp#bank.
    const flat = resolve(
      ok(parseMessage('pacs008', { ...sampleJson('pacs008.flat.json'), currency: 'GBP' })),
      refData(),
    );
    assertRule(flat, 'crosswalk_mismatch', 'asset_definition_id');
  });

  it('checks the BIC crosswalk: unknown BICs, disallowed accounts, different ledgers', () => {
    const unknown = resolve(pacs008(edit(sample('pacs008.xml'), 'NWBKGB2LXXX', 'BNPAFRPPXXX')), refData());
    assertRule(unknown, 'crosswalk_mismatch', `${TX}/CdtrAgt/FinInstnId/BICFI`);
    const disallowed = refData({
      ...FILES,
      iban: { ...FILES.iban, DE89370400440532013000: 'someone-else@de' },
    });
    assertRule(resolve(pacs008(), disallowed), 'crosswalk_mismatch', `${TX}/DbtrAgt/FinInstnId/BICFI`);
    const split = refData({ ...FILES, bic: { ...FILES.bic, NWBKGB2LXXX: { ledger_id: 'uk-ledger' } } });
    assertRule(resolve(pacs008(), split), 'crosswalk_mismatch', `${TX}/CdtrAgt/FinInstnId/BICFI`);
  });

  it('resolves pacs.009 through the institutions, falling back to the agents', () => {
    const ref = refData({
      bic: { COBADEFF: { ledger_id: 'torana-main' }, DEUTDEFF: { ledger_id: 'torana-main' } },
      iban: { DE89370400440532013000: 'coba-cash@de', DE44500105175407324931: 'deut-cash@de' },
      currency: { EUR: 'eur#bank' },
    });
    const r = resolve(ok(parseMessage('pacs009', sample('pacs009.xml'))), ref);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.contexts[0], {
      ledger_id: 'torana-main',
      source_account_id: 'coba-cash@de',
      target_account_id: 'deut-cash@de',
      asset_definition_id: 'eur#bank',
    });
    const flat = resolve(
      ok(parseMessage('pacs009', { ...sampleJson('pacs009.flat.json'), source_account_id: 'x@y' })),
      ref,
    );
    assertRule(flat, 'crosswalk_mismatch', 'source_account_id');
  });

  it('an account without an IBAN: required by default; with the switch, other id, then the single BIC account', () => {
    const othr = ok(parseMessage('pacs008', sample('pacs008-othr.xml')));
    const bicOnly = ok(parseMessage('pacs009', sample('pacs009-bic-only.xml')));
    const files = {
      bic: {
        COBADEFF: { ledger_id: 'torana-main', account_ids: ['coba-cash@de'] },
        NWBKGB2L: { ledger_id: 'torana-main', account_ids: ['nwbk-cash@gb', 'thames-precision@gb'] },
        DEUTDEFF: { ledger_id: 'torana-main' },
      },
      account: { '0532013000': 'muster-maschinenbau@de', '31926819': 'thames-precision@gb' },
      currency: { EUR: 'eur#bank' },
    };
    const off = refData(files);
    assertRule(resolve(othr, off), 'required', `${TX}/DbtrAcct/Id/IBAN`);
    assertRule(resolve(bicOnly, off), 'required', '/Document/FICdtTrf/CdtTrfTxInf/DbtrAcct/Id/IBAN');
    const on = { ...off, nonIbanAccounts: true };
    const r = resolve(othr, on);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(
      [r.contexts[0]?.source_account_id, r.contexts[0]?.target_account_id],
      ['muster-maschinenbau@de', 'thames-precision@gb'],
    );
    // NWBK allows two accounts, so its BIC names none: unresolved at the IBAN the message lacks.
    const p9 = resolve(bicOnly, on);
    assertRule(p9, 'account_unresolved', '/Document/FICdtTrf/CdtTrfTxInf/CdtrAcct/Id/IBAN');
    assert.equal(errorsOf(p9).length, 1, 'the debtor resolved by the single account of COBADEFF');
    assert.ok(!buildReferenceData({ account: { ' padded': 'a@b' } }).ok);
  });
});
