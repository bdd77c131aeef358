// Accounts without an IBAN (docs/iso20022.md "Accounts without an IBAN"), through a served
// node: a pacs.008 whose accounts are domestic numbers (`Othr/Id`) and an FI-to-FI pacs.009 that
// names only the institutions' BICs. By default both IBANs are required (400
// `required` at the IBAN path, nothing moves); with `iso20022.allow_non_iban_accounts` the other-id
// crosswalk, the institution's BIC crosswalk entry or a pin resolves the account, and both settle.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type BridgeNode,
  balance,
  EUR,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
  writeReferenceData,
} from './bridge-fixture.js';
import { edited, paymentPins, sample } from './messages.js';

const TX8 = '/Document/FIToFICstmrCdtTrf/CdtTrfTxInf';
const TX9 = '/Document/FICdtTrf/CdtTrfTxInf';
const SWITCH = 'iso20022.allow_non_iban_accounts';

function othr(msgId: string, edits: ReadonlyArray<readonly [string, string]> = []): string {
  return edited(sample('pacs008-othr.xml'), [['DEUT-P008-20250314-000117', msgId], ...edits]);
}

function bicOnly(msgId: string): string {
  return edited(sample('pacs009-bic-only.xml'), [
    ['COBA-P009-20250314-7790', msgId],
    ['COBA-BAH-20250314-7790', `BAH-${msgId}`],
  ]);
}

describe('ISO 20022 bridge: accounts without an IBAN', () => {
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

  it('by default both IBANs are required: 400 `required` at the IBAN path, for pacs.008 and pacs.009', async () => {
    const bob = balance(b, EUR, b.bob);
    const p8 = await post(b, 'pacs008', othr('OTHR-OFF-1'));
    assert.equal(p8.status, 400, JSON.stringify(p8.body));
    assert.equal(p8.body.code, 'iso_validation_failed');
    assert.deepEqual(
      p8.body.details.errors.map((e: { rule: string; path: string }) => [e.rule, e.path]),
      [
        ['required', `${TX8}/DbtrAcct/Id/IBAN`],
        ['required', `${TX8}/CdtrAcct/Id/IBAN`],
      ],
    );
    // Even a pin naming both ledger accounts does not stand in for the IBANs while the switch is off.
    const pinned = othr('OTHR-OFF-2', [
      ['</CdtTrfTxInf>', `${paymentPins({ source: b.alice.id, target: b.bob.id })}</CdtTrfTxInf>`],
    ]);
    const p8pinned = await post(b, 'pacs008', pinned);
    assert.equal(p8pinned.status, 400, JSON.stringify(p8pinned.body));
    assert.equal(p8pinned.body.details.rule, 'required');
    const p9 = await post(b, 'pacs009', bicOnly('BICONLY-OFF-1'));
    assert.equal(p9.status, 400, JSON.stringify(p9.body));
    assert.deepEqual([p9.body.details.rule, p9.body.details.path], ['required', `${TX9}/DbtrAcct/Id/IBAN`]);
    assert.equal(balance(b, EUR, b.bob), bob, 'nothing moved');
  });

  it('with the switch, Othr/Id accounts resolve by the other-id crosswalk and settle', async () => {
    await b.restartServed({ 'iso20022.reference_data_dir': refDir, [SWITCH]: true });
    const bob = BigInt(balance(b, EUR, b.bob).split('e')[0]!);
    const r = await post(b, 'pacs008', othr('OTHR-ON-1'));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.deepEqual(
      [r.body.source_account_id, r.body.target_account_id, r.body.asset_definition_id],
      [b.alice.id, b.bob.id, EUR],
    );
    assert.equal((await waitFor(b, 'OTHR-ON-1', settledOrRejected)).pacs002_code, 'ACSC');
    assert.equal(balance(b, EUR, b.bob), `${bob + 125000n}e-2`);
  });

  it('with the switch, an FI-to-FI pacs.009 naming only BICs resolves by the BIC crosswalk and settles', async () => {
    const bob = BigInt(balance(b, EUR, b.bob).split('e')[0]!);
    const r = await post(b, 'pacs009', bicOnly('BICONLY-ON-1'));
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.deepEqual([r.body.source_account_id, r.body.target_account_id], [b.carol.id, b.bob.id]);
    assert.equal((await waitFor(b, 'BICONLY-ON-1', settledOrRejected)).pacs002_code, 'ACSC');
    assert.equal(balance(b, EUR, b.bob), `${bob + 250000000n}e-2`);
  });

  it('with the switch, an unknown other id is 422 account_unresolved at Othr/Id unless a pin names the account', async () => {
    const stranger = othr('OTHR-ON-2', [['<Id>31926819</Id>', '<Id>99999999</Id>']]);
    const r = await post(b, 'pacs008', stranger);
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.deepEqual(
      [r.body.details.rule, r.body.details.path, r.body.details.errors[0].code],
      ['account_unresolved', `${TX8}/CdtrAcct/Id/Othr/Id`, 'iso_business_rule_failed'],
    );
    const pinned = othr('OTHR-ON-3', [
      ['<Id>31926819</Id>', '<Id>99999999</Id>'],
      ['</CdtTrfTxInf>', `${paymentPins({ target: b.bob.id })}</CdtTrfTxInf>`],
    ]);
    const ok = await post(b, 'pacs008', pinned);
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    assert.equal(ok.body.target_account_id, b.bob.id);
    // A pin never overrides the crosswalk: the known other id of alice's account cannot pay carol.
    const contradicted = othr('OTHR-ON-4', [
      ['</CdtTrfTxInf>', `${paymentPins({ target: b.carol.id })}</CdtTrfTxInf>`],
    ]);
    const no = await post(b, 'pacs008', contradicted);
    assert.equal(no.status, 422, JSON.stringify(no.body));
    assert.equal(no.body.details.rule, 'crosswalk_mismatch');
  });
});
