// BIC validation (ISO 9362): 4-letter institution code, 2-letter ISO 3166-1 country code,
// 2-character location code, optional 3-character branch code. ISO 9362:2014 also allows digits
// in the institution code; this library follows the stricter letters-only form (README).

import { getCountrySpecifications } from 'ibantools';
import { type Check, pass, reject } from './check.js';

const BIC = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;
// ibantools carries the ISO 3166-1 alpha-2 list (plus XK, Kosovo, which SWIFT also uses).
const COUNTRIES: ReadonlySet<string> = new Set(Object.keys(getCountrySpecifications()));

export function isCountryCode(code: string): boolean {
  return COUNTRIES.has(code);
}

export function checkBic(value: string): Check<string> {
  const m = BIC.exec(value);
  if (m === null) {
    return reject(
      'bic_format',
      'a BIC is 4 letters (institution), 2 letters (country), 2 letters or digits (location) and an optional 3-character branch',
    );
  }
  const country = m[1] ?? '';
  if (!isCountryCode(country)) return reject('bic_country', `${country} is not an ISO 3166 country code`);
  return pass(value);
}

/** The 11-character form: a BIC8 names the primary office, written with branch `XXX`. */
export function normalizeBic(bic: string): string {
  return bic.length === 8 ? `${bic}XXX` : bic;
}
