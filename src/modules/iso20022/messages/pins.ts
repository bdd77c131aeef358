// Supplementary-data pins (README "Ledger pins"): `SplmtryData/Envlp/Ledger` with children
// LedgerId, SourceAccountId, TargetAccountId and AssetDefinitionId, matched by local name in any
// namespace. Accepted at document level and at transaction level; transaction level wins per field.

import { PIN_CHARS_MAX } from '../limits.js';
import type { Issues } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';

/** What a message pins of its ledger context. Account ids are opaque strings here. */
export interface LedgerPins {
  readonly ledger_id: string | undefined;
  readonly source_account_id: string | undefined;
  readonly target_account_id: string | undefined;
  readonly asset_definition_id: string | undefined;
}

export type PinField = keyof LedgerPins;

/** Where each pin came from (an XPath, or the flat field name). */
export type PinPaths = { readonly [K in PinField]: string | undefined };

export interface PinSet {
  readonly pins: LedgerPins;
  readonly paths: PinPaths;
}

export const PIN_ELEMENTS: ReadonlyArray<readonly [PinField, string]> = [
  ['ledger_id', 'LedgerId'],
  ['source_account_id', 'SourceAccountId'],
  ['target_account_id', 'TargetAccountId'],
  ['asset_definition_id', 'AssetDefinitionId'],
];

export const NO_PINS: PinSet = {
  pins: {
    ledger_id: undefined,
    source_account_id: undefined,
    target_account_id: undefined,
    asset_definition_id: undefined,
  },
  paths: {
    ledger_id: undefined,
    source_account_id: undefined,
    target_account_id: undefined,
    asset_definition_id: undefined,
  },
};

// Opaque ids, but never empty, never with white space, and bounded.
const PIN_VALUE = new RegExp(`^\\S{1,${PIN_CHARS_MAX}}$`, 'u');

export function checkPin(is: Issues, value: string | undefined, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (!PIN_VALUE.test(value)) {
    is.add('pin_format', path, `a pin is 1 to ${PIN_CHARS_MAX} characters without white space`);
    return undefined;
  }
  return value;
}

/** Reads the Ledger pins under `parent/SplmtryData`. */
export function readPins(parent: XmlCursor, is: Issues): PinSet {
  const ledgers = parent
    .all('SplmtryData')
    .map((s) => s.at('Envlp', 'Ledger'))
    .filter((l) => l.exists);
  const ledger = ledgers[0];
  if (ledger === undefined) return NO_PINS;
  for (const extra of ledgers.slice(1))
    is.add('pin_duplicate', extra.path, 'only one Ledger pin block per level');
  const pins: Record<PinField, string | undefined> = { ...NO_PINS.pins };
  const paths: Record<PinField, string | undefined> = { ...NO_PINS.paths };
  for (const [field, element] of PIN_ELEMENTS) {
    const c = ledger.child(element);
    const value = checkPin(is, c.text(), c.path);
    if (value !== undefined) {
      pins[field] = value;
      paths[field] = c.path;
    }
  }
  return { pins, paths };
}

/** Transaction-level pins override document-level ones, field by field. */
export function mergePins(document: PinSet, transaction: PinSet): PinSet {
  const pins: Record<PinField, string | undefined> = { ...document.pins };
  const paths: Record<PinField, string | undefined> = { ...document.paths };
  for (const [field] of PIN_ELEMENTS) {
    if (transaction.pins[field] !== undefined) {
      pins[field] = transaction.pins[field];
      paths[field] = transaction.paths[field];
    }
  }
  return { pins, paths };
}
