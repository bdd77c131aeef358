// ISO 4217 currency checks over our own table (validate/iso4217.ts).

import { type Check, pass, reject } from './check.js';
import { type CurrencyInfo, ISO_4217 } from './iso4217.js';

const CURRENCY_SYNTAX = /^[A-Z]{3}$/;

export function checkCurrency(code: string): Check<CurrencyInfo> {
  if (!CURRENCY_SYNTAX.test(code))
    return reject('currency_format', 'a currency code is 3 upper-case letters');
  const info = ISO_4217.get(code);
  if (info === undefined) return reject('currency_unknown', `${code} is not an active ISO 4217 currency`);
  return pass(info);
}
