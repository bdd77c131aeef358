// Bridge reference data (docs/iso20022.md "Ledger context: pins and crosswalks"): crosswalks from BIC, IBAN
// and currency to the ledger, accounts and asset, and the resolution of a transfer's ledger context from
// its pins first, else the crosswalks.
//
// Directory layout (every file optional; a missing file is an empty crosswalk):
//   bic.json       { "DEUTDEFFXXX": { "ledger_id": "main", "account_ids": ["alice@de"] } }
//   iban.json      { "DE89370400440532013000": "alice@de" }
//   account.json   { "1234567890": "alice@de" }   (other account ids: AcctId/Othr/Id)
//   currency.json  { "EUR": "eur#bank" }
// BIC keys may be BIC8 or BIC11 (a BIC8 is stored as BIC11 with branch XXX). loadReferenceData is
// the library's only I/O; buildReferenceData validates already-decoded JSON.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IsoResult, IsoValidationError } from './errors.js';
import { checkPin } from './messages/pins.js';
import { checkBic, normalizeBic } from './validate/bic.js';
import type { Check } from './validate/check.js';
import { checkCurrency } from './validate/currency.js';
import { Issues } from './validate/fields.js';
import { checkIban } from './validate/iban.js';

/** Largest reference file read, in bytes. */
export const REFERENCE_FILE_BYTES_MAX = 16 * 1024 * 1024;
export const REFERENCE_FILES = {
  bic: 'bic.json',
  iban: 'iban.json',
  account: 'account.json',
  currency: 'currency.json',
} as const;
/** Longest other account id (ISO 20022 GenericAccountIdentification1/Id is Max34Text). */
export const OTHER_ACCOUNT_ID_CHARS_MAX = 34;

export interface BicEntry {
  /** The ledger this institution settles on. */
  readonly ledgerId: string | undefined;
  /** The accounts it may debit or credit; undefined allows any. */
  readonly accountIds: ReadonlySet<string> | undefined;
}

export interface ReferenceData {
  /** Keyed by BIC11. */
  readonly bics: ReadonlyMap<string, BicEntry>;
  readonly ibans: ReadonlyMap<string, string>;
  /** Other account id (`Acct/Id/Othr/Id`) → ledger account id (absent: empty). */
  readonly otherIds?: ReadonlyMap<string, string>;
  /** Currency code → asset definition id. */
  readonly currencies: ReadonlyMap<string, string>;
  /**
   * `iso20022.allow_non_iban_accounts` (docs/iso20022.md "Accounts without an IBAN"): whether an
   * account whose IBAN is absent may be resolved by a pin, the other-id crosswalk or, for a
   * pacs.009, the BIC crosswalk. Off (undefined) keeps the default rule: both IBANs required.
   */
  readonly nonIbanAccounts?: boolean;
}

export const EMPTY_REFERENCE_DATA: ReferenceData = {
  bics: new Map(),
  ibans: new Map(),
  otherIds: new Map(),
  currencies: new Map(),
};

export interface ReferenceFiles {
  readonly bic?: unknown;
  readonly iban?: unknown;
  readonly account?: unknown;
  readonly currency?: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads a { key: string-id } crosswalk, validating keys with `checkKey` and values as opaque ids. */
function readIdMap(
  is: Issues,
  file: string,
  raw: unknown,
  checkKey: (k: string) => Check<unknown>,
): Map<string, string> {
  const map = new Map<string, string>();
  if (raw === undefined) return map;
  if (!isRecord(raw)) {
    is.add('field_type', file, `${file} must be a JSON object`);
    return map;
  }
  for (const [key, value] of Object.entries(raw)) {
    const path = `${file}/${key}`;
    if (is.apply(checkKey(key), path) === undefined) continue;
    const id =
      typeof value === 'string' ? checkPin(is, value, path) : is.add('field_type', path, 'must be a string');
    if (id !== undefined) map.set(key, id);
  }
  return map;
}

function readBicEntry(is: Issues, path: string, value: unknown): BicEntry | undefined {
  if (!isRecord(value)) return is.add('field_type', path, 'must be an object');
  const ledger = value['ledger_id'];
  const accounts = value['account_ids'];
  const ledgerId = typeof ledger === 'string' ? checkPin(is, ledger, `${path}/ledger_id`) : undefined;
  if (ledger !== undefined && typeof ledger !== 'string')
    is.add('field_type', `${path}/ledger_id`, 'must be a string');
  if (accounts !== undefined && !Array.isArray(accounts)) {
    is.add('field_type', `${path}/account_ids`, 'must be an array of strings');
    return undefined;
  }
  const ids = (accounts ?? []).map((a, i) =>
    typeof a === 'string'
      ? checkPin(is, a, `${path}/account_ids/${i}`)
      : is.add('field_type', `${path}/account_ids/${i}`, 'must be a string'),
  );
  return {
    ledgerId,
    accountIds: accounts === undefined ? undefined : new Set(ids.filter((a) => a !== undefined)),
  };
}

/** An other account id as a crosswalk key: the same text limits as the message field. */
function checkOtherId(key: string): Check<string> {
  return key.length > 0 && key.length <= OTHER_ACCOUNT_ID_CHARS_MAX && key.trim() === key
    ? { ok: true, value: key }
    : {
        ok: false,
        rule: 'text_length',
        message: `1 to ${OTHER_ACCOUNT_ID_CHARS_MAX} characters, no outer spaces`,
      };
}

/** Validates decoded reference files; every bad entry is reported with its file/key path. */
export function buildReferenceData(files: ReferenceFiles): IsoResult<ReferenceData> {
  const is = new Issues();
  const bics = new Map<string, BicEntry>();
  if (files.bic !== undefined && !isRecord(files.bic))
    is.add('field_type', REFERENCE_FILES.bic, 'must be a JSON object');
  for (const [key, value] of Object.entries(isRecord(files.bic) ? files.bic : {})) {
    const path = `${REFERENCE_FILES.bic}/${key}`;
    if (is.apply(checkBic(key), path) === undefined) continue;
    const entry = readBicEntry(is, path, value);
    if (entry !== undefined) bics.set(normalizeBic(key), entry);
  }
  const ibans = readIdMap(is, REFERENCE_FILES.iban, files.iban, checkIban);
  const otherIds = readIdMap(is, REFERENCE_FILES.account, files.account, checkOtherId);
  const currencies = readIdMap(is, REFERENCE_FILES.currency, files.currency, checkCurrency);
  return is.ok
    ? { ok: true, value: { bics, ibans, otherIds, currencies } }
    : { ok: false, errors: is.errors };
}

async function readJson(dir: string, file: string, errors: IsoValidationError[]): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(join(dir, file), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    errors.push({
      code: 'iso_validation_failed',
      rule: 'field_type',
      path: file,
      message: `cannot read: ${(e as Error).message}`,
    });
    return undefined;
  }
  if (Buffer.byteLength(text, 'utf8') > REFERENCE_FILE_BYTES_MAX) {
    errors.push({ code: 'iso_validation_failed', rule: 'field_type', path: file, message: 'file too large' });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    errors.push({ code: 'iso_validation_failed', rule: 'field_type', path: file, message: 'not valid JSON' });
    return undefined;
  }
}

/** Loads the crosswalk files of REFERENCE_FILES from a directory (missing files are empty). */
export async function loadReferenceData(dir: string): Promise<IsoResult<ReferenceData>> {
  const errors: IsoValidationError[] = [];
  const [bic, iban, account, currency] = await Promise.all(
    [REFERENCE_FILES.bic, REFERENCE_FILES.iban, REFERENCE_FILES.account, REFERENCE_FILES.currency].map((f) =>
      readJson(dir, f, errors),
    ),
  );
  if (errors.length > 0) return { ok: false, errors };
  return buildReferenceData({ bic, iban, account, currency });
}
