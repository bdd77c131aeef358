// IBAN validation (ISO 13616): the syntax of the electronic form, then ibantools for the
// country's registered length, BBAN format and the mod-97 check digits. Our wrapper turns
// ibantools' error list into one stable rule with a reason.

import { getCountrySpecifications, ValidationErrorsIBAN, validateIBAN } from 'ibantools';
import { type Check, pass, reject } from './check.js';

// Electronic format (ISO 13616-1 §5): no spaces, upper case, at most 34 characters.
const IBAN_SYNTAX = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/;
const COUNTRY_SPECS = getCountrySpecifications();

export function checkIban(value: string): Check<string> {
  if (!IBAN_SYNTAX.test(value)) {
    return reject(
      'iban_format',
      'an IBAN is 2 letters, 2 check digits and up to 30 upper-case letters or digits, without spaces',
    );
  }
  const result = validateIBAN(value, { allowQRIBAN: true });
  if (result.valid) return pass(value);
  const codes = new Set(result.errorCodes);
  const country = value.slice(0, 2);
  if (codes.has(ValidationErrorsIBAN.NoIBANCountry)) {
    return reject('iban_country', `country ${country} has no registered IBAN format`);
  }
  if (codes.has(ValidationErrorsIBAN.WrongBBANLength)) {
    const chars = COUNTRY_SPECS[country]?.chars ?? 0;
    return reject('iban_length', `an IBAN of ${country} has ${chars} characters, not ${value.length}`);
  }
  if (codes.has(ValidationErrorsIBAN.WrongBBANFormat) || codes.has(ValidationErrorsIBAN.ChecksumNotNumber)) {
    return reject('iban_format', `the account part does not follow the IBAN format of ${country}`);
  }
  if (codes.has(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) {
    return reject('iban_checksum', 'the national check digits of the IBAN do not match');
  }
  return reject('iban_checksum', 'the IBAN check digits do not match (ISO 13616 mod 97)');
}
