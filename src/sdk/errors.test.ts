// The SDK's typed errors: a rejection's message at scale, its committed text kept (errors.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The SDK's surface loads the registry, which adds the modules' rejection forms (as an application's does).
import './index.js';
import { TransactionRejectedError } from './errors.js';

const HASH = 'ef'.repeat(32);

describe('TransactionRejectedError', () => {
  it("reads a rejection's base units at the definition's scale and keeps the committed text", () => {
    const committed =
      'account cap 200 (window tx, units at scale 2) of usd#w exceeded by a@w: 350 with this transfer';
    const reason = { code: 'transfer_cap_exceeded', message: committed } as never;
    const e = new TransactionRejectedError(HASH, reason, 9);
    assert.equal(
      e.message,
      `transaction ${HASH} rejected: transfer_cap_exceeded: account cap 2.00 (window tx) of usd#w exceeded by a@w: 3.50 with this transfer`,
    );
    assert.equal(e.committedMessage, committed);
    assert.equal(e.reason.message, committed);
    assert.equal(e.code, 'transfer_cap_exceeded');
  });

  it("renders every module's forms: a lot's quantity, a conference bill", () => {
    const lot = new TransactionRejectedError(
      HASH,
      { code: 'rwa_quantity_unavailable', message: 'lot L-1 holds 1200 held units at scale 3' } as never,
      4,
    );
    assert.equal(
      lot.message,
      `transaction ${HASH} rejected: rwa_quantity_unavailable: lot L-1 holds 1.200 held`,
    );
    assert.equal(lot.committedMessage, 'lot L-1 holds 1200 held units at scale 3');
    const bill = new TransactionRejectedError(
      HASH,
      {
        code: 'conference_billing_mismatch',
        message: 'billedGas must be 1500000 units at scale 6 (ceil(x))',
      } as never,
      undefined,
    );
    assert.match(bill.message, /: billedGas must be 1\.500000 \(ceil\(x\)\)$/);
  });

  it('leaves a message without amounts as committed', () => {
    const e = new TransactionRejectedError(
      HASH,
      { code: 'insufficient_funds', message: 'balance 1 below 2' } as never,
      3,
    );
    assert.equal(e.message, `transaction ${HASH} rejected: insufficient_funds: balance 1 below 2`);
    assert.equal(e.committedMessage, 'balance 1 below 2');
  });
});
