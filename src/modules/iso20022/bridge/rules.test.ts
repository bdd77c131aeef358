// Unit tests of the mapping rules: exact scale conversion, ISO reason codes for ledger rejections,
// forward-only status order, and the 400/422 split of library failures.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validationError } from '../errors.js';
import { fromIsoErrors } from './errors.js';
import { currencyToScale, toScale } from './plan.js';
import { advances, paymentReason, securitiesReason } from './status.js';

describe('amount conversion', () => {
  it('scales up exactly and down only without losing digits', () => {
    assert.deepEqual(toScale({ mantissa: 125n, scale: 1 }, 3), { mantissa: 12500n, scale: 3 });
    assert.deepEqual(toScale({ mantissa: 12500n, scale: 2 }, 0), { mantissa: 125n, scale: 0 });
    assert.equal(toScale({ mantissa: 12501n, scale: 2 }, 0), undefined);
  });

  it('refuses a currency with more minor units than the asset scale, whatever the value', () => {
    const eur = { currency: 'EUR', text: '125.00', mantissa: 12500n, scale: 2 };
    assert.equal(currencyToScale(eur, 0), undefined);
    assert.deepEqual(currencyToScale(eur, 4), { mantissa: 1250000n, scale: 4 });
    const jpy = { currency: 'JPY', text: '100', mantissa: 100n, scale: 0 };
    assert.deepEqual(currencyToScale(jpy, 0), { mantissa: 100n, scale: 0 });
  });
});

describe('status codes', () => {
  it('maps ledger rejections to ISO reasons, proprietary when there is no equivalent', () => {
    assert.equal(paymentReason('account_not_found', 'x').code, 'AC01');
    assert.equal(paymentReason('insufficient_funds', 'x').code, 'AM04');
    assert.equal(paymentReason('transaction_expired', 'x').code, 'ED07');
    assert.equal(paymentReason('same_account', 'x').code, 'BE01');
    assert.deepEqual(paymentReason('execution_limit', 'too big'), {
      proprietary: 'execution_limit',
      text: 'too big',
    });
    assert.equal(securitiesReason('insufficient_funds', 0), 'LACK');
    assert.equal(securitiesReason('insufficient_funds', 1), 'MONY');
    assert.equal(securitiesReason('overflow', 0), 'OTHR');
  });

  it('only moves forward: ACTC → ACSP → ACSC | RJCT', () => {
    assert.ok(advances('ACTC', 'ACSP') && advances('ACSP', 'ACSC') && advances('ACTC', 'RJCT'));
    assert.ok(!advances('ACSC', 'ACSP') && !advances('ACSC', 'RJCT') && !advances('RJCT', 'ACSC'));
  });
});

describe('error classification', () => {
  it('field failures are 400 unless all are business rules (422); reader failures keep their code', () => {
    const iban = validationError('iban_checksum', '/Document/x/IBAN', 'bad');
    const purp = validationError('purpose_not_secu', '/Document/x/Purp/Cd', 'no');
    assert.equal(fromIsoErrors([iban, purp]).code, 'iso_validation_failed');
    const e = fromIsoErrors([purp]);
    assert.equal(e.code, 'iso_business_rule_failed');
    assert.deepEqual([e.details.path, e.details.rule], ['/Document/x/Purp/Cd', 'purpose_not_secu']);
    assert.equal(
      fromIsoErrors([{ code: 'iso_xml_too_deep', message: 'deep' }, iban]).code,
      'iso_xml_too_deep',
    );
  });
});
