// The committed rejection messages that carry base units, as a person reads them (rejection-text.ts).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// The registry adds the modules' forms (each module's rejection-forms.ts).
import '../modules/registry.js';
import { atScale, readableRejection } from './rejection-text.js';

describe('rejection text at scale', () => {
  it('writes a mantissa at its scale', () => {
    assert.deepEqual(
      [atScale('200', 2), atScale('5', 2), atScale('0', 3), atScale('42', 0)],
      ['2.00', '0.05', '0.000', '42'],
    );
  });

  it('renders a transfer cap and the amount spent at the definition scale', () => {
    const committed =
      'definition cap 200 (window day, units at scale 2) of usd#w exceeded by alice@w: 1250 with this transfer';
    assert.equal(
      readableRejection('transfer_cap_exceeded', committed),
      'definition cap 2.00 (window day) of usd#w exceeded by alice@w: 12.50 with this transfer',
    );
  });

  it('renders the quantities of a lot and the gas of a conference bill', () => {
    assert.equal(
      readableRejection('rwa_quantity_unavailable', 'lot L-1 holds 5 free units at scale 2'),
      'lot L-1 holds 0.05 free',
    );
    assert.equal(
      readableRejection('rwa_quantity_unavailable', 'lot L-1 holds 1200 held units at scale 3'),
      'lot L-1 holds 1.200 held',
    );
    assert.equal(
      readableRejection(
        'conference_billing_mismatch',
        'billedGas must be 1500000 units at scale 6 (ceil(x))',
      ),
      'billedGas must be 1.500000 (ceil(x))',
    );
  });

  it('leaves any other message, and a known code in another form, as it is', () => {
    assert.equal(readableRejection('insufficient_funds', 'balance 1 below 2'), 'balance 1 below 2');
    assert.equal(readableRejection('transfer_cap_exceeded', 'something else'), 'something else');
  });
});
