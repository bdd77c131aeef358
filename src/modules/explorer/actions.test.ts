// `torana explorer tx` as a person reads it: a rejection's amounts at their scale (the JSON stays as sent).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The registry adds the modules' rejection forms, as the CLI's main does through modules/commands.ts.
import '../registry.js';
import { readableRejectionOf } from './actions.js';

describe('explorer records', () => {
  it("shows a rejected transaction's message with its amounts at scale", () => {
    const committed =
      'account cap 200 (window tx, units at scale 2) of usd#w exceeded by a@w: 350 with this transfer';
    const doc = {
      hash: 'ab',
      status: 'Rejected',
      rejection_reason: {
        encoded: '00',
        json: { code: 'transfer_cap_exceeded', message: committed },
        message: committed,
      },
    };
    const shown = readableRejectionOf(doc);
    assert.deepEqual(shown['rejection_reason'], {
      encoded: '00',
      json: { code: 'transfer_cap_exceeded', message: committed },
      message: 'account cap 2.00 (window tx) of usd#w exceeded by a@w: 3.50 with this transfer',
    });
    assert.equal(doc.rejection_reason.message, committed, 'the document itself is left as it was');
  });

  it('leaves a committed transaction as it is', () => {
    const doc = { hash: 'cd', status: 'Committed' };
    assert.equal(readableRejectionOf(doc), doc);
  });
});
