// Amounts and quantities as exact decimals (never floating point for money). An amount
// is a decimal string without sign or exponent (ISO 20022 ActiveCurrencyAndAmount: at most 18
// digits), and its fraction may not be finer than the currency's minor unit (ISO 4217). The value
// comes out as { mantissa, scale } with the scale set to the currency's minor units, so the
// mantissa counts minor units (EUR 12.5 → 1250n, scale 2).

import { type Check, pass, reject } from './check.js';
import type { CurrencyInfo } from './iso4217.js';

export interface DecimalValue {
  readonly mantissa: bigint;
  readonly scale: number;
}

/** Total significant digits allowed in an ISO 20022 amount (xs:totalDigits 18). */
export const AMOUNT_DIGITS_MAX = 18;
/** Longest decimal string looked at; anything longer cannot meet the digit limits. */
const DECIMAL_CHARS_MAX = 64;
// Digits, optionally a point and more digits: no sign, no exponent, no bare "5." or ".5".
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

interface DecimalParts {
  readonly integer: string;
  readonly fraction: string;
}

/** Splits a decimal string into significant integer and fraction digits (leading/trailing zeros dropped). */
function splitDecimal(text: string): DecimalParts | undefined {
  if (text.length > DECIMAL_CHARS_MAX) return undefined;
  const m = DECIMAL.exec(text);
  if (m === null) return undefined;
  return { integer: (m[1] ?? '').replace(/^0+/, ''), fraction: (m[2] ?? '').replace(/0+$/, '') };
}

export function checkAmount(text: string, currency: CurrencyInfo): Check<DecimalValue> {
  const parts = splitDecimal(text);
  if (parts === undefined) {
    const tooLong = text.length > DECIMAL_CHARS_MAX && /^[\d.]+$/.test(text);
    return tooLong
      ? reject('amount_digits', `an amount has at most ${AMOUNT_DIGITS_MAX} digits`)
      : reject('amount_format', 'an amount is a decimal string like 1234.50, without sign or exponent');
  }
  if (parts.integer.length + parts.fraction.length > AMOUNT_DIGITS_MAX) {
    return reject('amount_digits', `an amount has at most ${AMOUNT_DIGITS_MAX} digits`);
  }
  const minor = currency.minorUnits;
  if (minor === undefined) {
    return reject(
      'currency_no_minor_unit',
      `${currency.code} has no minor unit and cannot carry a payment amount`,
    );
  }
  if (parts.fraction.length > minor) {
    return reject('amount_precision', `${currency.code} allows at most ${minor} decimal places`);
  }
  const mantissa = BigInt(`${parts.integer}${parts.fraction.padEnd(minor, '0')}` || '0');
  return pass({ mantissa, scale: minor });
}

/** A quantity (units, face amount): at most `digitsMax` digits, of which at most `fractionMax` after the point. */
export function checkQuantity(text: string, digitsMax = 18, fractionMax = 17): Check<DecimalValue> {
  const parts = splitDecimal(text);
  if (parts === undefined || parts.integer.length + parts.fraction.length > digitsMax) {
    return reject('quantity_format', `a quantity is a decimal string with at most ${digitsMax} digits`);
  }
  if (parts.fraction.length > fractionMax) {
    return reject('quantity_format', `a quantity has at most ${fractionMax} decimal places`);
  }
  return pass({ mantissa: BigInt(`${parts.integer}${parts.fraction}` || '0'), scale: parts.fraction.length });
}

/** Writes mantissa × 10^-scale as a plain decimal string (1250n, 2 → "12.50"). */
export function formatDecimal(value: DecimalValue): string {
  const negative = value.mantissa < 0n;
  const digits = (negative ? -value.mantissa : value.mantissa).toString().padStart(value.scale + 1, '0');
  const cut = digits.length - value.scale;
  const text = value.scale === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  return negative ? `-${text}` : text;
}
