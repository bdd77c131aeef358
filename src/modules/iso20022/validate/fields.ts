// Ties the pure checks to field paths and collects every failure of a message (not only the
// first), up to VALIDATION_ERRORS_MAX. `req*` reports a missing value as rule `required`; `opt*`
// accepts absence. The same helpers serve the XML form (paths are XPaths) and the flat form
// (paths are field names).

import { type IsoRule, type IsoValidationError, validationError } from '../errors.js';
import { VALIDATION_ERRORS_MAX } from '../limits.js';
import type { FieldSource } from '../xml/cursor.js';
import { checkAmount, checkQuantity, type DecimalValue } from './amount.js';
import { checkBic } from './bic.js';
import type { Check } from './check.js';
import { checkCurrency } from './currency.js';
import { checkDate, checkDateTime } from './datetime.js';
import { checkIban } from './iban.js';
import { checkCode, checkIsin, checkText, checkUuid } from './identifiers.js';

export interface IsoAmount {
  readonly currency: string;
  /** The decimal string as received. */
  readonly text: string;
  /** The value in minor units of the currency: value = mantissa × 10^-scale. */
  readonly mantissa: bigint;
  /** The currency's minor units (ISO 4217). */
  readonly scale: number;
}

export class Issues {
  readonly errors: IsoValidationError[] = [];

  get ok(): boolean {
    return this.errors.length === 0;
  }

  /** Records a failure; returns undefined so a field reader can `return is.add(…)`. */
  add(rule: IsoRule, path: string, message: string): undefined {
    if (this.errors.length < VALIDATION_ERRORS_MAX) this.errors.push(validationError(rule, path, message));
    return undefined;
  }

  apply<T>(check: Check<T>, path: string): T | undefined {
    if (check.ok) return check.value;
    this.add(check.rule, path, check.message);
    return undefined;
  }

  missing(path: string): undefined {
    return this.add('required', path, `${path.slice(path.lastIndexOf('/') + 1)} is required`);
  }
}

type Checker<T> = (value: string) => Check<T>;

function required<T>(is: Issues, src: FieldSource, check: Checker<T>): T | undefined {
  const v = src.text();
  return v === undefined ? is.missing(src.path) : is.apply(check(v), src.path);
}

function optional<T>(is: Issues, src: FieldSource, check: Checker<T>): T | undefined {
  const v = src.text();
  return v === undefined ? undefined : is.apply(check(v), src.path);
}

/** ISO 20022 MaxNNText; 35 (Max35Text) is the length of every message and transaction id. */
export const reqText = (is: Issues, src: FieldSource, max = 35) =>
  required(is, src, (v) => checkText(v, max));
export const optText = (is: Issues, src: FieldSource, max = 35) =>
  optional(is, src, (v) => checkText(v, max));
export const reqIban = (is: Issues, src: FieldSource) => required(is, src, checkIban);
export const optIban = (is: Issues, src: FieldSource) => optional(is, src, checkIban);
export const reqBic = (is: Issues, src: FieldSource) => required(is, src, checkBic);
export const optBic = (is: Issues, src: FieldSource) => optional(is, src, checkBic);
export const reqDate = (is: Issues, src: FieldSource) => required(is, src, checkDate);
export const optDate = (is: Issues, src: FieldSource) => optional(is, src, checkDate);
export const reqDateTime = (is: Issues, src: FieldSource) => required(is, src, checkDateTime);
export const optDateTime = (is: Issues, src: FieldSource) => optional(is, src, checkDateTime);
export const optUuid = (is: Issues, src: FieldSource) => optional(is, src, checkUuid);
export const reqIsin = (is: Issues, src: FieldSource) => required(is, src, checkIsin);
export const reqCode = (is: Issues, src: FieldSource, allowed?: ReadonlySet<string>) =>
  required(is, src, (v) => checkCode(v, allowed));
export const optCode = (is: Issues, src: FieldSource, allowed?: ReadonlySet<string>) =>
  optional(is, src, (v) => checkCode(v, allowed));
export const reqQuantity = (is: Issues, src: FieldSource): DecimalValue | undefined =>
  required(is, src, (v) => checkQuantity(v));

/** An amount and its currency attribute (or flat field); both are checked and both errors reported. */
export function reqAmount(is: Issues, amount: FieldSource, currency: FieldSource): IsoAmount | undefined {
  const ccy = required(is, currency, checkCurrency);
  const text = amount.text();
  if (text === undefined) return is.missing(amount.path);
  if (ccy === undefined) return undefined;
  if (ccy.minorUnits === undefined) {
    is.add(
      'currency_no_minor_unit',
      currency.path,
      `${ccy.code} has no minor unit and cannot carry a payment amount`,
    );
    return undefined;
  }
  const value = is.apply(checkAmount(text, ccy), amount.path);
  return value === undefined ? undefined : { currency: ccy.code, text, ...value };
}

export function optAmount(is: Issues, amount: FieldSource, currency: FieldSource): IsoAmount | undefined {
  return amount.text() === undefined ? undefined : reqAmount(is, amount, currency);
}
