import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAmount, checkQuantity, formatDecimal } from './validate/amount.js';
import { checkBic, normalizeBic } from './validate/bic.js';
import type { Check } from './validate/check.js';
import { checkCurrency } from './validate/currency.js';
import { checkDate, checkDateTime } from './validate/datetime.js';
import { checkIban } from './validate/iban.js';
import {
  checkCode,
  checkIsin,
  checkMessageDefinitionId,
  checkText,
  checkUuid,
} from './validate/identifiers.js';
import { type CurrencyInfo, ISO_4217 } from './validate/iso4217.js';

function rule<T>(c: Check<T>): string {
  return c.ok ? 'ok' : c.rule;
}

function currency(code: string): CurrencyInfo {
  const info = ISO_4217.get(code);
  assert.ok(info, code);
  return info;
}

describe('IBAN', () => {
  it('accepts valid IBANs of several countries', () => {
    for (const iban of [
      'DE89370400440532013000',
      'GB29NWBK60161331926819',
      'FR1420041010050500013M02606',
      'NO9386011117947',
    ]) {
      assert.equal(rule(checkIban(iban)), 'ok', iban);
    }
  });
  it('names the reason of a failure', () => {
    assert.equal(rule(checkIban('DE89370400440532013001')), 'iban_checksum');
    assert.equal(rule(checkIban('DE8937040044053201300')), 'iban_length');
    assert.equal(rule(checkIban('GB29NWBK601613319268AB')), 'iban_format'); // right length, wrong BBAN format
    assert.equal(rule(checkIban('XX89370400440532013000')), 'iban_country');
    assert.equal(rule(checkIban('US12345678901234')), 'iban_country');
    for (const bad of ['de89370400440532013000', 'DE89 3704 0044 0532 0130 00', '', 'DE', 'D'.repeat(40)]) {
      assert.equal(rule(checkIban(bad)), 'iban_format', bad);
    }
  });
});

describe('BIC', () => {
  it('accepts BIC8 and BIC11 with a real country code', () => {
    for (const bic of ['DEUTDEFF', 'DEUTDEFFXXX', 'NWBKGB2L', 'BNPAFRPP123', 'RZBAXKPR'])
      assert.equal(rule(checkBic(bic)), 'ok', bic);
  });
  it('refuses other shapes and unknown countries', () => {
    for (const bad of ['DEUTDEF', 'DEUTDEFFX', 'DEUTDEFFXXXX', 'deutdeff', 'DEU1DEFF', 'DEUTDEF_']) {
      assert.equal(rule(checkBic(bad)), 'bic_format', bad);
    }
    assert.equal(rule(checkBic('DEUTQQFF')), 'bic_country');
    assert.equal(rule(checkBic('DEUTEUFF')), 'bic_country');
  });
  it('normalises BIC8 to BIC11', () => {
    assert.equal(normalizeBic('DEUTDEFF'), 'DEUTDEFFXXX');
    assert.equal(normalizeBic('DEUTDEFF500'), 'DEUTDEFF500');
  });
});

describe('ISO 4217 table', () => {
  it('has the minor units of a known sample', () => {
    const expected: Array<[string, string, number | undefined]> = [
      ['USD', '840', 2],
      ['EUR', '978', 2],
      ['JPY', '392', 0],
      ['BHD', '048', 3],
      ['KWD', '414', 3],
      ['CLF', '990', 4],
      ['UYW', '927', 4],
      ['ISK', '352', 0],
      ['KRW', '410', 0],
      ['GBP', '826', 2],
      ['CHF', '756', 2],
      ['XAU', '959', undefined],
      ['XDR', '960', undefined],
      ['XXX', '999', undefined],
    ];
    for (const [code, numeric, minor] of expected) {
      assert.deepEqual(currency(code), { code, numeric, minorUnits: minor }, code);
    }
  });
  it('holds only well-formed, unique, active codes', () => {
    assert.ok(ISO_4217.size >= 175 && ISO_4217.size <= 185, `size ${ISO_4217.size}`);
    const numerics = new Set<string>();
    for (const c of ISO_4217.values()) {
      assert.match(c.code, /^[A-Z]{3}$/);
      assert.match(c.numeric, /^\d{3}$/);
      assert.ok(c.minorUnits === undefined || [0, 2, 3, 4].includes(c.minorUnits), c.code);
      assert.ok(!numerics.has(c.numeric), `duplicate numeric ${c.numeric}`);
      numerics.add(c.numeric);
    }
    for (const withdrawn of ['HRK', 'ANG', 'SLL', 'VEF', 'MRO'])
      assert.equal(ISO_4217.has(withdrawn), false, withdrawn);
  });
  it('checks syntax, then membership', () => {
    assert.equal(rule(checkCurrency('EUR')), 'ok');
    assert.equal(rule(checkCurrency('eur')), 'currency_format');
    assert.equal(rule(checkCurrency('EURO')), 'currency_format');
    assert.equal(rule(checkCurrency('ABC')), 'currency_unknown');
  });
});

describe('amounts', () => {
  it('converts to minor units with the currency scale, never through floating point', () => {
    assert.deepEqual(checkAmount('1250', currency('EUR')), {
      ok: true,
      value: { mantissa: 125000n, scale: 2 },
    });
    assert.deepEqual(checkAmount('0.1', currency('EUR')), { ok: true, value: { mantissa: 10n, scale: 2 } });
    assert.deepEqual(checkAmount('1.230', currency('BHD')), {
      ok: true,
      value: { mantissa: 1230n, scale: 3 },
    });
    assert.deepEqual(checkAmount('100', currency('JPY')), { ok: true, value: { mantissa: 100n, scale: 0 } });
    assert.deepEqual(checkAmount('100.00', currency('JPY')), {
      ok: true,
      value: { mantissa: 100n, scale: 0 },
    });
    assert.deepEqual(checkAmount('0.0001', currency('CLF')), { ok: true, value: { mantissa: 1n, scale: 4 } });
    const big = checkAmount('9999999999999999.99', currency('EUR'));
    assert.deepEqual(big, { ok: true, value: { mantissa: 999999999999999999n, scale: 2 } });
  });
  it('refuses precision finer than the minor unit', () => {
    assert.equal(rule(checkAmount('100.5', currency('JPY'))), 'amount_precision');
    assert.equal(rule(checkAmount('1.001', currency('EUR'))), 'amount_precision');
    assert.equal(rule(checkAmount('1.00001', currency('CLF'))), 'amount_precision');
    assert.equal(rule(checkAmount('1', currency('XAU'))), 'currency_no_minor_unit');
  });
  it('refuses signs, exponents, bare points and more than 18 digits', () => {
    for (const bad of ['-1', '+1', '1e3', '1E3', '.5', '5.', '1,5', ' 1', '', 'NaN', '0x10', '١٢']) {
      assert.equal(rule(checkAmount(bad, currency('EUR'))), 'amount_format', JSON.stringify(bad));
    }
    assert.equal(rule(checkAmount('1234567890123456789', currency('JPY'))), 'amount_digits');
    assert.equal(rule(checkAmount('12345678901234567.89', currency('EUR'))), 'amount_digits');
    assert.equal(rule(checkAmount('1'.repeat(100), currency('EUR'))), 'amount_digits');
  });
  it('formats decimals back exactly', () => {
    assert.equal(formatDecimal({ mantissa: 125000n, scale: 2 }), '1250.00');
    assert.equal(formatDecimal({ mantissa: 5n, scale: 3 }), '0.005');
    assert.equal(formatDecimal({ mantissa: 42n, scale: 0 }), '42');
    assert.equal(formatDecimal({ mantissa: -5n, scale: 2 }), '-0.05');
  });
  it('reads quantities with their own scale', () => {
    assert.deepEqual(checkQuantity('5000000'), { ok: true, value: { mantissa: 5000000n, scale: 0 } });
    assert.deepEqual(checkQuantity('12.5000'), { ok: true, value: { mantissa: 125n, scale: 1 } });
    assert.equal(rule(checkQuantity('-1')), 'quantity_format');
  });
});

describe('dates and date-times', () => {
  it('checks real calendar days, leap years included', () => {
    for (const d of ['2024-02-29', '2000-02-29', '2025-12-31', '0001-01-01'])
      assert.equal(rule(checkDate(d)), 'ok', d);
    for (const d of ['2025-02-29', '1900-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '0000-01-01']) {
      assert.equal(rule(checkDate(d)), 'date_invalid', d);
    }
    for (const d of ['2025-3-14', '20250314', '2025-03-14Z', '2025-03-14T00:00:00', '']) {
      assert.equal(rule(checkDate(d)), 'date_format', d);
    }
  });
  it('accepts ISO 8601 date-times with optional fraction and offset', () => {
    for (const t of [
      '2025-03-14T09:30:00',
      '2025-03-14T09:30:00Z',
      '2025-03-14T09:30:00.123456789+14:00',
      '2025-03-14T23:59:59-05:30',
    ]) {
      assert.equal(rule(checkDateTime(t)), 'ok', t);
    }
    for (const t of [
      '2025-03-14T24:00:00Z',
      '2025-03-14T10:60:00Z',
      '2025-02-30T10:00:00Z',
      '2025-03-14T10:00:00+14:30',
      '2025-03-14T10:00:00+01:60',
    ]) {
      assert.equal(rule(checkDateTime(t)), 'datetime_invalid', t);
    }
    for (const t of [
      '2025-03-14 10:00:00',
      '2025-03-14T10:00',
      '2025-03-14T10:00:00+0100',
      '2025-03-14T10:00:00.Z',
    ]) {
      assert.equal(rule(checkDateTime(t)), 'datetime_format', t);
    }
  });
});

describe('identifiers', () => {
  it('checks message definition ids, UETRs, ISINs, codes and text lengths', () => {
    assert.equal(rule(checkMessageDefinitionId('pacs.008.001.09')), 'ok');
    for (const bad of ['pacs.008.001.9', 'PACS.008.001.09', 'pacs008', 'pacs.008.001.09.1']) {
      assert.equal(rule(checkMessageDefinitionId(bad)), 'msgdef_format', bad);
    }
    assert.equal(rule(checkUuid('0f4c6d7e-3a2b-4c1d-9e8f-7a6b5c4d3e2f')), 'ok');
    assert.equal(rule(checkUuid('0f4c6d7e-3a2b-1c1d-9e8f-7a6b5c4d3e2f')), 'uuid_format'); // not version 4
    assert.equal(rule(checkUuid('0F4C6D7E-3A2B-4C1D-9E8F-7A6B5C4D3E2F')), 'uuid_format');
    assert.equal(rule(checkIsin('US0378331005')), 'ok');
    assert.equal(rule(checkIsin('US0378331006')), 'isin_checksum');
    assert.equal(rule(checkIsin('US037833100')), 'isin_format');
    assert.equal(rule(checkCode('AC01')), 'ok');
    assert.equal(rule(checkCode('ac01')), 'code_format');
    assert.equal(rule(checkCode('ACXX', new Set(['AC01']))), 'code_unknown');
    assert.equal(rule(checkText('x'.repeat(35), 35)), 'ok');
    assert.equal(rule(checkText('😀'.repeat(35), 35)), 'ok'); // counted in code points
    assert.equal(rule(checkText('x'.repeat(36), 35)), 'text_length');
  });
});
