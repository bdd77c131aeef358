import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ed25519KeyPair } from '../../../crypto/signer.js';
import { accountId } from '../../../model/ids.js';
import { buildReferenceData } from '../reference-data.js';
import { actsFor, buildParticipants, holdsBic } from './participants.js';

const acct = (n: number) =>
  accountId(Ed25519KeyPair.fromSeed(new Uint8Array(32).fill(n)).publicKeyText(), 'bank');
const BANK = acct(1);
const CUSTOMER = acct(2);
const LISTED = acct(3);
const STRANGER = acct(4);

describe('bridge participants', () => {
  it('acts for its own account, its listed accounts and its BICs’ crosswalk accounts, nothing else', () => {
    const p = buildParticipants({ [BANK]: { bics: ['DEUTDEFF'], account_ids: [LISTED] } });
    assert.ok(p.ok);
    const bank = p.value.get(BANK)!;
    const ref = buildReferenceData({
      bic: { DEUTDEFFXXX: { account_ids: [CUSTOMER] }, COBADEFFXXX: { account_ids: [STRANGER] } },
    });
    assert.ok(ref.ok);
    assert.ok(holdsBic(bank, 'DEUTDEFFXXX') && holdsBic(bank, 'DEUTDEFF') && !holdsBic(bank, 'COBADEFFXXX'));
    for (const a of [BANK, LISTED, CUSTOMER]) assert.ok(actsFor(bank, a, ref.value), a);
    assert.ok(!actsFor(bank, STRANGER, ref.value), 'another BIC’s account');
  });

  it('refuses malformed files with every problem named', () => {
    const r = buildParticipants({
      'not-an-account': { bics: ['nope'], account_ids: ['x'], extra: 1 },
      [BANK]: { bics: 'DEUTDEFFXXX' },
    });
    assert.ok(!r.ok);
    const text = r.errors.join('\n');
    for (const m of [
      'not an account id',
      'nope is not a BIC',
      'x is not an account id',
      'unknown field extra',
      'expected a list',
    ])
      assert.match(text, new RegExp(m));
    assert.ok(!buildParticipants([]).ok);
  });
});
