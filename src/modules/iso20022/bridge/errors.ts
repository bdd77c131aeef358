// Typed failures of the bridge (README "Errors"). Each carries a stable code that the gateway registry
// maps to an HTTP status (src/gateway/ledger-errors.ts, docs/errors.md "ISO 20022 bridge"): malformed
// or invalid input 400, business rules 422, duplicates 409, unknown messages 404. Never a 5xx for a
// client mistake; `iso_bridge_unavailable` (503) only when the record store itself failed.

import type { IsoError } from '../errors.js';

export type BridgeErrorCode =
  | 'iso_xml_malformed'
  | 'iso_xml_forbidden_construct'
  | 'iso_xml_too_large'
  | 'iso_xml_too_deep'
  | 'iso_unsupported_message'
  | 'iso_message_mismatch'
  | 'iso_input_invalid'
  | 'iso_validation_failed'
  | 'iso_business_rule_failed'
  | 'iso_participant_not_authorised'
  | 'iso_duplicate_message'
  | 'iso_message_not_found'
  | 'iso_report_unavailable'
  | 'iso_bridge_unavailable';

/** Bridge rules on top of the library's IsoRule (README "Business rules"). */
export type BridgeRule =
  | 'ledger_mismatch'
  | 'asset_definition_unknown'
  | 'amount_scale'
  | 'quantity_scale'
  | 'original_unknown'
  | 'original_kind'
  | 'original_not_settled'
  | 'original_transaction_unknown'
  | 'return_exceeds_original'
  | 'currency_mismatch'
  | 'account_unresolved'
  | 'asset_unresolved'
  | 'originals_multiple'
  | 'links_max'
  | 'count_max'
  | 'quantity_format'
  | 'required';

export interface ProblemItem {
  readonly code: string;
  readonly rule?: string;
  readonly path?: string;
  readonly message: string;
}

export class BridgeError extends Error {
  override readonly name = 'BridgeError';
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Library rules that are business rules (422), not malformed input (400): the brief's examples. */
const BUSINESS_RULES: ReadonlySet<string> = new Set([
  'crosswalk_mismatch',
  'purpose_not_secu',
  'ledger_unresolved',
  'account_unresolved',
  'asset_unresolved',
]);

function isBusinessRule(e: IsoError): boolean {
  return e.code === 'iso_validation_failed' && BUSINESS_RULES.has(e.rule);
}

/**
 * One entry of `details.errors[]`. Its code is the code of its rule, whatever the answer's status:
 * an unresolved account reads `iso_business_rule_failed` here exactly as an unknown original does
 * (businessRule below), also when a malformed field beside it makes the whole answer a 400.
 */
function item(e: IsoError): ProblemItem {
  const code = isBusinessRule(e) ? 'iso_business_rule_failed' : e.code;
  const base = { code, message: e.message };
  if (e.code === 'iso_validation_failed') return { ...base, rule: e.rule, path: e.path };
  return e.path === undefined ? base : { ...base, path: e.path };
}

function detailsOf(items: readonly ProblemItem[]): Record<string, unknown> {
  const first = items[0];
  return {
    path: first?.path ?? null,
    rule: first?.rule ?? null,
    errors: items.map((i) => ({ ...i })),
  };
}

/**
 * Turns the library's failures into one bridge error: a reader failure keeps its own code (400); field
 * failures are `iso_validation_failed` (400) unless every one is a business rule (422). `details`
 * carries the first failure's XPath and rule and the whole list.
 */
export function fromIsoErrors(errors: readonly IsoError[]): BridgeError {
  const items = errors.map(item);
  const reader = errors.find((e) => e.code !== 'iso_validation_failed');
  if (reader !== undefined) return new BridgeError(reader.code, reader.message, detailsOf(items));
  const business = errors.every(isBusinessRule);
  const first = errors[0];
  const message = first === undefined ? 'validation failed' : `${first.path}: ${first.message}`;
  return new BridgeError(
    business ? 'iso_business_rule_failed' : 'iso_validation_failed',
    message,
    detailsOf(items),
  );
}

/** A bridge business rule (422) at one path. */
export function businessRule(rule: BridgeRule, path: string, message: string): BridgeError {
  return new BridgeError(
    'iso_business_rule_failed',
    `${path}: ${message}`,
    detailsOf([{ code: 'iso_business_rule_failed', rule, path, message }]),
  );
}

/** A bridge-level field failure (400), e.g. the assigner BIC a camt.029 answer needs, or a bad pin. */
export function fieldError(rule: string, path: string, message: string): BridgeError {
  return new BridgeError(
    'iso_validation_failed',
    `${path}: ${message}`,
    detailsOf([{ code: 'iso_validation_failed', rule, path, message }]),
  );
}
