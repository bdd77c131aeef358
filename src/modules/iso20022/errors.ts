// Typed failures of the ISO 20022 library (README "Errors"). Nothing here throws on bad input:
// parsing, validation, extraction, resolution and building all return these values instead.

/** Failures of the hardened XML reader (xml.ts), raised before or while parsing. */
export type IsoXmlErrorCode =
  | 'iso_xml_malformed'
  | 'iso_xml_forbidden_construct'
  | 'iso_xml_too_large'
  | 'iso_xml_too_deep';

/** Failures about what the input is, rather than what it contains. */
export type IsoInputErrorCode =
  /** The namespace names a message definition this library does not read. */
  | 'iso_unsupported_message'
  /** The document is a valid ISO message, but not the kind the caller asked for. */
  | 'iso_message_mismatch'
  /** The body is neither XML nor a flat field object (or the flat form is not offered for the kind). */
  | 'iso_input_invalid';

export type IsoErrorCode = IsoXmlErrorCode | IsoInputErrorCode | 'iso_validation_failed';

/** The rule a field broke. Stable strings: the HTTP layer returns them to clients. */
export type IsoRule =
  | 'required'
  | 'text_length'
  | 'text_invalid_char'
  | 'iban_format'
  | 'iban_country'
  | 'iban_length'
  | 'iban_checksum'
  | 'bic_format'
  | 'bic_country'
  | 'currency_format'
  | 'currency_unknown'
  | 'currency_no_minor_unit'
  | 'currency_mismatch'
  | 'amount_format'
  | 'amount_digits'
  | 'amount_precision'
  | 'amount_not_positive'
  | 'quantity_format'
  | 'date_format'
  | 'date_invalid'
  | 'datetime_format'
  | 'datetime_invalid'
  | 'msgdef_format'
  | 'msgdef_mismatch'
  | 'namespace_unknown'
  | 'uuid_format'
  | 'isin_format'
  | 'isin_checksum'
  | 'code_format'
  | 'code_unknown'
  | 'count_mismatch'
  | 'purpose_not_secu'
  | 'pin_duplicate'
  | 'pin_format'
  | 'field_unknown'
  | 'field_type'
  | 'ledger_unresolved'
  | 'account_unresolved'
  | 'asset_unresolved'
  | 'crosswalk_mismatch';

export interface IsoXmlError {
  readonly code: IsoXmlErrorCode;
  readonly message: string;
  /** Where the problem was seen: an element path when known, else a character offset (`@123`). */
  readonly path?: string;
}

export interface IsoInputError {
  readonly code: IsoInputErrorCode;
  readonly message: string;
  readonly path?: string;
}

export interface IsoValidationError {
  readonly code: 'iso_validation_failed';
  readonly rule: IsoRule;
  /** XPath of the failing field (`/Document/...`, `/AppHdr/...`), or the flat field name. */
  readonly path: string;
  readonly message: string;
}

export type IsoError = IsoXmlError | IsoInputError | IsoValidationError;

export type IsoResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: IsoError[] };

export function xmlError(code: IsoXmlErrorCode, message: string, path?: string): IsoXmlError {
  return path === undefined ? { code, message } : { code, message, path };
}

export function inputError(code: IsoInputErrorCode, message: string, path?: string): IsoInputError {
  return path === undefined ? { code, message } : { code, message, path };
}

export function validationError(rule: IsoRule, path: string, message: string): IsoValidationError {
  return { code: 'iso_validation_failed', rule, path, message };
}
