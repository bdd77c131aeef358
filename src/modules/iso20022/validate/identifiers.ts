// Identifier and text checks shared by every message: ISO 20022 text lengths (MaxNNText), message
// definition ids, UETRs (UUIDv4Identifier), ISINs (ISO 6166) and external code values.

import { type Check, pass, reject } from './check.js';

// The 4-letter business area, message number, variant and version (e.g. pacs.008.001.09).
const MESSAGE_DEFINITION_ID = /^[a-z]{4}\.\d{3}\.\d{3}\.\d{2}$/;
// The pattern of UUIDv4Identifier in the ISO 20022 schemas (RFC 4122 version 4, lower case).
const UUID_V4 = /^[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}$/;
const ISIN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;
// External code sets (ExternalStatusReason1Code, …) are 1–4 characters; we expect the published
// upper-case alphanumeric form.
const EXTERNAL_CODE = /^[A-Z0-9]{1,4}$/;

export function checkText(value: string, maxChars: number): Check<string> {
  // Count code points, as XML Schema's length facets do, and only when the UTF-16 length could exceed.
  if (value.length > maxChars && [...value].length > maxChars) {
    return reject('text_length', `at most ${maxChars} characters`);
  }
  return pass(value);
}

export function checkMessageDefinitionId(value: string): Check<string> {
  return MESSAGE_DEFINITION_ID.test(value)
    ? pass(value)
    : reject('msgdef_format', 'a message definition id looks like pacs.008.001.09');
}

export function checkUuid(value: string): Check<string> {
  return UUID_V4.test(value) ? pass(value) : reject('uuid_format', 'a UETR is a lower-case UUID version 4');
}

export function checkCode(value: string, allowed?: ReadonlySet<string>): Check<string> {
  if (!EXTERNAL_CODE.test(value))
    return reject('code_format', 'a code is 1 to 4 upper-case letters or digits');
  if (allowed !== undefined && !allowed.has(value)) {
    return reject('code_unknown', `${value} is not one of ${[...allowed].join(', ')}`);
  }
  return pass(value);
}

/** ISO 6166: 2-letter prefix, 9 alphanumeric characters, a Luhn check digit over the digit expansion. */
export function checkIsin(value: string): Check<string> {
  if (!ISIN.test(value))
    return reject('isin_format', 'an ISIN is 2 letters, 9 letters or digits and a check digit');
  let digits = '';
  for (const ch of value) digits += Number.parseInt(ch, 36).toString();
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0 ? pass(value) : reject('isin_checksum', 'the ISIN check digit does not match');
}
