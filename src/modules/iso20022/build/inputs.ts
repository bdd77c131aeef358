// Input checks shared by the builders. Builders take plain typed values from the bridge (never
// raw XML), but still refuse anything that would produce an invalid message: wrong lengths,
// malformed BICs, dates or amounts, characters XML 1.0 cannot carry. Paths are input field names
// (`transactions[0].reasonCode`).

import type { IsoValidationError } from '../errors.js';
import { checkAmount, formatDecimal } from '../validate/amount.js';
import { checkBic } from '../validate/bic.js';
import type { Check } from '../validate/check.js';
import { checkCurrency } from '../validate/currency.js';
import { checkDate, checkDateTime } from '../validate/datetime.js';
import type { Issues } from '../validate/fields.js';
import { checkCode, checkIsin, checkText, checkUuid } from '../validate/identifiers.js';

export type BuildResult =
  | { readonly ok: true; readonly xml: string }
  | { readonly ok: false; readonly errors: IsoValidationError[] };

export interface AmountInput {
  readonly currency: string;
  /** A decimal string, e.g. "1250.00"; written back in the currency's minor units. */
  readonly value: string;
}

/** An original message reference (OrgnlGrpInf / OrgnlGrpInfAndSts). */
export interface OriginalMessageInput {
  readonly messageId: string;
  /** OrgnlMsgNmId, e.g. `pacs.008.001.09`. */
  readonly messageDefinitionId: string;
  readonly creationTime?: string | undefined;
}

// Characters XML 1.0 cannot represent, even escaped (§2.2), and unpaired surrogates.
const UNREPRESENTABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function field<T>(
  is: Issues,
  value: string | undefined,
  path: string,
  required: boolean,
  check: (v: string) => Check<T>,
) {
  if (value === undefined || value === '') return required ? is.missing(path) : undefined;
  if (UNREPRESENTABLE.test(value))
    return is.add('text_invalid_char', path, 'contains a character XML cannot carry');
  return is.apply(check(value), path);
}

export const text = (is: Issues, v: string | undefined, path: string, required = true, max = 35) =>
  field(is, v, path, required, (s) => checkText(s, max));
export const bic = (is: Issues, v: string | undefined, path: string, required = true) =>
  field(is, v, path, required, checkBic);
export const date = (is: Issues, v: string | undefined, path: string, required = true) =>
  field(is, v, path, required, checkDate);
export const dateTime = (is: Issues, v: string | undefined, path: string, required = true) =>
  field(is, v, path, required, checkDateTime);
export const uuid = (is: Issues, v: string | undefined, path: string) => field(is, v, path, false, checkUuid);
export const isin = (is: Issues, v: string | undefined, path: string) => field(is, v, path, true, checkIsin);
export const code = (
  is: Issues,
  v: string | undefined,
  path: string,
  allowed?: ReadonlySet<string>,
  required = true,
) => field(is, v, path, required, (s) => checkCode(s, allowed));

/** Validates an amount and returns [formatted value, currency] for `<X Ccy="…">value</X>`. */
export function amount(
  is: Issues,
  a: AmountInput | undefined,
  path: string,
  required = true,
): [string, string] | undefined {
  if (a === undefined) return required ? is.missing(path) : undefined;
  const ccy = is.apply(checkCurrency(a.currency), `${path}.currency`);
  if (ccy === undefined) return undefined;
  const value = is.apply(checkAmount(a.value, ccy), `${path}.value`);
  return value === undefined ? undefined : [formatDecimal(value), ccy.code];
}

export function original(is: Issues, o: OriginalMessageInput | undefined, path: string) {
  if (o === undefined) return is.missing(path);
  return {
    messageId: text(is, o.messageId, `${path}.messageId`),
    messageDefinitionId: text(is, o.messageDefinitionId, `${path}.messageDefinitionId`),
    creationTime: dateTime(is, o.creationTime, `${path}.creationTime`, false),
  };
}

/** Reason code or proprietary reason, plus up to two lines of additional information (Max105Text). */
export function reason(
  is: Issues,
  r: {
    reasonCode?: string | undefined;
    proprietaryReason?: string | undefined;
    additionalInfo?: readonly string[] | undefined;
  },
  path: string,
  required: boolean,
) {
  const reasonCode = code(is, r.reasonCode, `${path}.reasonCode`, undefined, false);
  const proprietary = text(is, r.proprietaryReason, `${path}.proprietaryReason`, false);
  if (required && r.reasonCode === undefined && r.proprietaryReason === undefined)
    is.missing(`${path}.reasonCode`);
  const info = (r.additionalInfo ?? []).map((line, i) =>
    text(is, line, `${path}.additionalInfo[${i}]`, true, 105),
  );
  return { reasonCode, proprietary, info: info.filter((l): l is string => l !== undefined) };
}
