// pacs.008 / pacs.009 through the live routes: XML (plain, enveloped) and flat fields, the 202 answer,
// settlement on the ledger, RJCT reasons from ledger rejections, duplicates, the codec answer, the
// pacs.002 report against the official schema, and the OpenAPI document.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { decodeFrame } from '../../src/codec/frame.js';
import { createSchemaRegistry } from '../../src/model/schema.js';
import { Iso20022RecordView } from '../../src/modules/iso20022/routes/views.js';
import { startServedNode } from '../helpers/served.js';
import { newAccount } from '../helpers/tx.js';
import {
  assertXsdValid,
  type BridgeNode,
  balance,
  DOMAIN,
  EUR,
  get,
  post,
  settledOrRejected,
  signedHeaders,
  startBridgeNode,
  WHOLE_EUR,
  waitFor,
} from './bridge-fixture.js';
import { pacs008, pacs008Sample, pacs009Sample, sample } from './messages.js';

describe('ISO 20022 bridge: payments', () => {
  let b: BridgeNode;
  let pins: { source: string; target: string; asset: string };
  before(async () => {
    b = await startBridgeNode();
    pins = { source: b.alice.id, target: b.bob.id, asset: EUR };
  });
  after(() => b.stopAll());

  it('pacs.008 XML: 202 with the ledger context, then ACSC and exactly the amount moved', async () => {
    const before = balance(b, EUR, b.bob);
    const r = await post(b, 'pacs008', pacs008Sample('DEUT-P008-20250314-000117', pins));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.replayed, false);
    assert.equal(r.body.message_id, 'DEUT-P008-20250314-000117');
    assert.match(r.body.transaction_hash, /^[0-9a-f]{64}$/);
    assert.equal(r.body.status, 'Pending');
    assert.ok(['ACSP', 'ACSC'].includes(r.body.pacs002_code));
    assert.equal(r.body.ledger_id, 'torana-test');
    assert.equal(r.body.source_account_id, b.alice.id);
    assert.equal(r.body.target_account_id, b.bob.id);
    assert.equal(r.body.asset_definition_id, EUR);
    const rec = await waitFor(b, r.body.message_id, settledOrRejected);
    assert.equal(rec.pacs002_code, 'ACSC');
    assert.equal(rec.status, 'Accepted');
    assert.equal(before, '0');
    assert.equal(balance(b, EUR, b.bob), '125000e-2');
    const report = await get(b, '/v1/iso20022/messages/DEUT-P008-20250314-000117/pacs002');
    assert.equal(report.status, 200);
    assert.match(report.type, /^application\/xml/);
    assert.match(report.text, /<GrpSts>ACSC<\/GrpSts>/);
    assert.match(report.text, /<OrgnlEndToEndId>INV-2025-0042<\/OrgnlEndToEndId>/);
    await assertXsdValid('pacs.002.001.11.xsd', report.text);
  });

  it('the same message sent again answers 202 with its record, marked as a replay, and moves nothing', async () => {
    const before = balance(b, EUR, b.bob);
    const r = await post(b, 'pacs008', pacs008Sample('DEUT-P008-20250314-000117', pins));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.replayed, true);
    assert.equal(r.body.message_id, 'DEUT-P008-20250314-000117');
    assert.equal(r.body.pacs002_code, 'ACSC');
    assert.equal(r.body.source_account_id, b.alice.id);
    assert.equal(balance(b, EUR, b.bob), before);
  });

  it('a different body under a message id already received is 409 iso_duplicate_message', async () => {
    const before = balance(b, EUR, b.bob);
    const other = pacs008Sample('DEUT-P008-20250314-000117', pins, 'E2E-OTHER');
    const r = await post(b, 'pacs008', other);
    assert.equal(r.status, 409);
    assert.equal(r.replayed, false);
    assert.equal(r.body.code, 'iso_duplicate_message');
    assert.match(r.body.message, /DEUT-P008-20250314-000117.*different body/);
    assert.equal(r.body.details.record.message_id, 'DEUT-P008-20250314-000117');
    assert.equal(r.body.details.record.pacs002_code, 'ACSC');
    assert.equal(balance(b, EUR, b.bob), before);
  });

  it('pacs.008 flat fields (JSON) settle like XML', async () => {
    const flat = {
      ...JSON.parse(sample('pacs008.flat.json')),
      ledger_id: 'torana-test',
      source_account_id: b.alice.id,
      target_account_id: b.bob.id,
      asset_definition_id: EUR,
    };
    const r = await post(b, 'pacs008', flat);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.message_id, 'DEUT-P008-20250314-000119');
    assert.equal((await waitFor(b, r.body.message_id, settledOrRejected)).pacs002_code, 'ACSC');
  });

  it('pacs.009 in a head.001 envelope with Purp SECU settles (institution to institution)', async () => {
    const r = await post(
      b,
      'pacs009',
      pacs009Sample('COBA-P009-1', { source: b.carol.id, target: b.bob.id, asset: EUR }),
    );
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const rec = await waitFor(b, 'COBA-P009-1', settledOrRejected);
    assert.equal(rec.pacs002_code, 'ACSC');
    assert.equal(rec.transfers[0].amount, '2500000.00');
    assert.equal(rec.info.business_message_id, 'BAH-COBA-P009-1');
  });

  it('several transactions are one atomic ledger transaction: one failing leg rejects all (RJCT AM04)', async () => {
    const before = [balance(b, EUR, b.alice), balance(b, EUR, b.bob)];
    const xml = pacs008('MULTI-1', [
      { e2e: 'E2E-1', amount: '10.00', pins },
      { e2e: 'E2E-2', amount: '99999999.00', pins: { source: b.bob.id, target: b.alice.id, asset: EUR } },
    ]);
    const r = await post(b, 'pacs008', xml);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.transfers.length, 2);
    const rec = await waitFor(b, 'MULTI-1', settledOrRejected);
    assert.equal(rec.pacs002_code, 'RJCT');
    assert.equal(rec.status, 'Rejected');
    assert.equal(rec.reason_code, 'AM04');
    assert.deepEqual(rec.info.ledger_rejection, { code: 'insufficient_funds', instruction_index: 1 });
    assert.deepEqual([balance(b, EUR, b.alice), balance(b, EUR, b.bob)], before);
    const report = await get(b, '/v1/iso20022/messages/MULTI-1/pacs002');
    assert.match(report.text, /<TxSts>RJCT<\/TxSts>[\s\S]*<Cd>AM04<\/Cd>/);
    await assertXsdValid('pacs.002.001.11.xsd', report.text);
  });

  it('an unknown creditor account is RJCT AC01', async () => {
    const ghost = newAccount(DOMAIN).id;
    await post(b, 'pacs008', pacs008Sample('GHOST-1', { ...pins, target: ghost }));
    const rec = await waitFor(b, 'GHOST-1', settledOrRejected);
    assert.equal(rec.pacs002_code, 'RJCT');
    assert.equal(rec.reason_code, 'AC01');
  });

  it('EUR (2 minor units) on a whole-unit asset is 422 amount_scale at the amount', async () => {
    const r = await post(b, 'pacs008', pacs008Sample('SCALE-1', { ...pins, asset: WHOLE_EUR }));
    assert.equal(r.status, 422);
    assert.equal(r.body.code, 'iso_business_rule_failed');
    assert.equal(r.body.details.rule, 'amount_scale');
    assert.equal(r.body.details.path, '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf/IntrBkSttlmAmt');
  });

  it('without crosswalks: unpinned accounts, foreign ledgers, unknown assets and malformed pins are refused', async () => {
    const TX = '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf';
    const cases: Array<[string, number, string, string]> = [
      [
        pacs008('NOPIN-1', [{ e2e: 'e', amount: '1.00' }]),
        422,
        'account_unresolved',
        `${TX}/DbtrAcct/Id/IBAN`,
      ],
      [
        pacs008('LEDGER-1', [{ e2e: 'e', amount: '1.00', pins: { ...pins, ledger: 'other' } }]),
        422,
        'ledger_mismatch',
        `${TX}/SplmtryData/Envlp/Ledger/LedgerId`,
      ],
      [
        pacs008('ASSET-1', [{ e2e: 'e', amount: '1.00', pins: { ...pins, asset: 'gold#bank' } }]),
        422,
        'asset_definition_unknown',
        `${TX}/SplmtryData/Envlp/Ledger/AssetDefinitionId`,
      ],
      [
        pacs008('PIN-1', [{ e2e: 'e', amount: '1.00', pins: { ...pins, source: 'not-an-account' } }]),
        400,
        'pin_format',
        `${TX}/SplmtryData/Envlp/Ledger/SourceAccountId`,
      ],
    ];
    for (const [xml, status, rule, path] of cases) {
      const r = await post(b, 'pacs008', xml);
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.details.rule, rule);
      assert.equal(r.body.details.path, path);
    }
  });

  it('answers in the codec when Accept prefers it', async () => {
    const path = '/v1/iso20022/messages/DEUT-P008-20250314-000117';
    const res = await fetch(`${b.url}${path}`, {
      headers: { accept: 'application/x-codec', ...signedHeaders(b.bank, 'GET', path) },
    });
    assert.equal(res.status, 200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(Buffer.from(bytes.subarray(0, 4)).toString(), 'TRNC');
    const limits = { bytesMax: 1 << 20, itemsMax: 10_000, depthMax: 32 };
    const d = decodeFrame(createSchemaRegistry([Iso20022RecordView]), Iso20022RecordView, bytes, limits);
    assert.ok(d.ok, d.ok ? '' : d.error.message);
    assert.equal(d.value.pacs002Code, 'ACSC');
  });

  it('unknown messages and reports that do not apply are 404 with distinct codes', async () => {
    const missing = await get(b, '/v1/iso20022/messages/NOPE');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().code, 'iso_message_not_found');
    const noReturn = await get(b, '/v1/iso20022/messages/DEUT-P008-20250314-000117/pacs004');
    assert.equal(noReturn.status, 404);
    assert.equal(noReturn.json().code, 'iso_report_unavailable');
    const notSecurities = await get(b, '/v1/iso20022/messages/DEUT-P008-20250314-000117/sese025');
    assert.equal(notSecurities.json().code, 'iso_report_unavailable');
  });

  it('the OpenAPI document lists every bridge route', async () => {
    const doc = (await get(b, '/openapi.json')).json() as { paths: Record<string, unknown> };
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/iso20022/'));
    for (const k of [
      'pacs008',
      'pacs009',
      'pacs002',
      'pacs004',
      'camt056',
      'sese023',
      'sese024',
      'sese025',
      'colr012',
    ])
      assert.ok(paths.includes(`/v1/iso20022/${k}`), k);
    for (const k of ['pacs002', 'pacs004', 'camt029', 'sese024', 'sese025'])
      assert.ok(paths.includes(`/v1/iso20022/messages/{msg_id}/${k}`), k);
    assert.ok(paths.includes('/v1/iso20022/messages/{msg_id}'));
    assert.ok(paths.includes('/v1/iso20022/audit/messages'));
    assert.equal(paths.length, 16);
    const result = await new Validator().validate(doc as never);
    assert.ok(result.valid, String(JSON.stringify(result.errors)).slice(0, 2000));
    const post008 = (doc.paths['/v1/iso20022/pacs008'] as { post: { requestBody: { content: object } } })
      .post;
    assert.deepEqual(Object.keys(post008.requestBody.content).sort(), [
      'application/json',
      'application/xml',
    ]);
  });
});

describe('ISO 20022 bridge: disabled', () => {
  it('without iso20022.enabled there are no bridge routes, in the table or the OpenAPI document', async () => {
    const t = await startServedNode();
    try {
      const r = await fetch(`${t.url}/v1/iso20022/pacs008`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: sample('pacs008.xml'),
      });
      assert.equal(r.status, 404);
      const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      assert.equal(Object.keys(doc.paths).filter((p) => p.startsWith('/v1/iso20022/')).length, 0);
    } finally {
      await t.stopAll();
    }
  });
});
