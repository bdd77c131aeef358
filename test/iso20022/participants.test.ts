// Bridge participants through the live routes (docs/iso20022.md "Participants"):
// reads need a participant's signature too; pacs.009 checks the debtor FI / instructing agent BIC;
// a pacs.004 return debits the original creditor, so only a participant acting for it may send one.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registerAccounts } from '../helpers/node.js';
import { newAccount } from '../helpers/tx.js';
import {
  type BridgeNode,
  balance,
  EUR,
  fixtureAccounts,
  get,
  post,
  settledOrRejected,
  startBridgeNode,
  waitFor,
} from './bridge-fixture.js';
import { edited, pacs008Sample, pacs009Sample, sample } from './messages.js';

const ORIGINAL = 'DEUT-P008-20250314-000117';

describe('ISO 20022 bridge: participants', () => {
  let b: BridgeNode;
  // Holds DEUT and NWBK (not COBA) and acts only for alice, never for bob or carol.
  const debtorBank = newAccount('bank', 43);
  const stranger = newAccount('bank', 42);
  before(async () => {
    b = await startBridgeNode(
      {},
      {
        [debtorBank.id]: { bics: ['DEUTDEFFXXX', 'NWBKGB2LXXX'], account_ids: [fixtureAccounts().alice.id] },
      },
    );
    // Signed app requests come from registered accounts only; the stranger is registered, not a participant.
    await registerAccounts(b, [debtorBank, stranger]);
  });
  after(() => b.stopAll());

  it('reads need a participant: unsigned 401, a non-participant 403, the participant 200/404', async () => {
    const path = '/v1/iso20022/messages/NOT-YET';
    const unsigned = await get(b, path, null);
    assert.equal(unsigned.status, 401);
    assert.equal(unsigned.json().code, 'signature_missing');
    const other = await get(b, path, stranger);
    assert.equal(other.status, 403);
    assert.equal(other.json().code, 'iso_participant_not_authorised');
    assert.equal(other.json().details.reason, 'not_a_participant');
    assert.equal((await get(b, '/v1/iso20022/audit/messages', null)).status, 401);
    assert.equal((await get(b, `${path}/pacs002`, stranger)).status, 403);
    assert.equal((await get(b, path, debtorBank)).status, 404);
  });

  it('pacs.009: the debtor FI (else instructing agent) must be one of the participant’s BICs', async () => {
    const body = pacs009Sample('COBA-P009-AUTH', { source: b.carol.id, target: b.bob.id, asset: EUR });
    const r = await post(b, 'pacs009', body, {}, debtorBank);
    assert.equal(r.status, 403, JSON.stringify(r.body));
    assert.equal(r.body.details.reason, 'bic');
    assert.equal(r.body.details.bic, 'COBADEFFXXX');
    const ok = await post(b, 'pacs009', body);
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
  });

  it('a return debits the original creditor: only a participant acting for it may send it', async () => {
    await post(b, 'pacs008', pacs008Sample(ORIGINAL, { source: b.alice.id, target: b.bob.id, asset: EUR }));
    assert.equal((await waitFor(b, ORIGINAL, settledOrRejected)).pacs002_code, 'ACSC');
    const bobBefore = balance(b, EUR, b.bob);
    const ret = edited(sample('pacs004.xml'), [['NWBK-P004-20250317-0012', 'RET-AUTH-1']]);
    const r = await post(b, 'pacs004', ret, {}, debtorBank);
    assert.equal(r.status, 403, JSON.stringify(r.body));
    assert.equal(r.body.code, 'iso_participant_not_authorised');
    assert.equal(r.body.details.reason, 'account');
    assert.equal(r.body.details.account, b.bob.id);
    assert.equal(balance(b, EUR, b.bob), bobBefore);
    // The creditor's bank (the fixture bank acts for bob) may.
    const ok = await post(b, 'pacs004', ret);
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
  });
});
