// Resolution of a transfer's ledger context (README "Resolution"): each field comes from the
// message's pins first, else from the crosswalks of reference-data.ts. A pin that contradicts a
// crosswalk entry is a `crosswalk_mismatch`; a field found nowhere is `ledger_unresolved`,
// `account_unresolved` or `asset_unresolved`, reported at the path of the field that would have
// resolved it (the IBAN for an account, the currency for the asset, the BIC for the ledger).
//
// Accounts without an IBAN (docs/iso20022.md "Accounts without an IBAN"): both IBANs are required
// by default (400 `required` at the IBAN path). With the operator's
// `iso20022.allow_non_iban_accounts` (ReferenceData.nonIbanAccounts), an absent IBAN is resolved by
// the pin, else the other-id crosswalk (`Othr/Id`), else, for an FI-to-FI pacs.009 only, the BIC
// crosswalk entry of the institution when it allows exactly one account.

import type { IsoValidationError } from './errors.js';
import type { Pacs008Message } from './messages/pacs008.js';
import type { Pacs009Message } from './messages/pacs009.js';
import type { LedgerPins, PinPaths } from './messages/pins.js';
import type { ReferenceData } from './reference-data.js';
import { normalizeBic } from './validate/bic.js';
import { Issues } from './validate/fields.js';

export interface LedgerContext {
  readonly ledger_id: string;
  readonly source_account_id: string;
  readonly target_account_id: string;
  readonly asset_definition_id: string;
}

interface Side {
  /** Absent when the message names the account otherwise, or (pacs.009) names only the institution. */
  readonly iban: string | undefined;
  readonly ibanPath: string;
  readonly otherId: string | undefined;
  readonly otherIdPath: string;
  /** True for pacs.009, whose parties are institutions: their BIC may identify the account. */
  readonly fiToFi: boolean;
  /** The institution that holds the account: the debtor/creditor agent, or for pacs.009 the FI itself. */
  readonly bic: string | undefined;
  readonly bicPath: string;
}

/** The message-independent view of one transfer that resolution needs. */
export interface ResolvableTransfer {
  readonly source: Side;
  readonly target: Side;
  readonly currency: string;
  readonly currencyPath: string;
  readonly pins: LedgerPins;
  readonly pinPaths: PinPaths;
}

function account(
  iban: string | undefined,
  ibanPath: string,
  otherId: string | undefined,
  otherIdPath: string,
  fiToFi: boolean,
) {
  return { iban, ibanPath, otherId, otherIdPath, fiToFi };
}

/** One ResolvableTransfer per transaction of a pacs.008 or pacs.009 (XML or flat). */
export function transfersOf(message: Pacs008Message | Pacs009Message): ResolvableTransfer[] {
  if (message.kind === 'pacs008') {
    return message.transactions.map((t) => ({
      source: {
        ...account(t.debtorIban, t.paths.debtorIban, t.debtorOtherId, t.paths.debtorOtherId, false),
        bic: t.debtorBic,
        bicPath: t.paths.debtorBic,
      },
      target: {
        ...account(t.creditorIban, t.paths.creditorIban, t.creditorOtherId, t.paths.creditorOtherId, false),
        bic: t.creditorBic,
        bicPath: t.paths.creditorBic,
      },
      currency: t.amount.currency,
      currencyPath: t.paths.currency,
      pins: t.pins,
      pinPaths: t.paths.pins,
    }));
  }
  return message.transactions.map((t) => {
    // pacs.009 parties are institutions: their own BIC when given, else the agent that acts for them.
    const sourceBic =
      t.debtorBic === undefined
        ? ([t.instructingAgentBic, t.paths.instructingAgentBic] as const)
        : ([t.debtorBic, t.paths.debtorBic] as const);
    const targetBic =
      t.creditorBic === undefined
        ? ([t.instructedAgentBic, t.paths.instructedAgentBic] as const)
        : ([t.creditorBic, t.paths.creditorBic] as const);
    return {
      source: {
        ...account(t.debtorIban, t.paths.debtorIban, t.debtorOtherId, t.paths.debtorOtherId, true),
        bic: sourceBic[0],
        bicPath: sourceBic[1],
      },
      target: {
        ...account(t.creditorIban, t.paths.creditorIban, t.creditorOtherId, t.paths.creditorOtherId, true),
        bic: targetBic[0],
        bicPath: targetBic[1],
      },
      currency: t.amount.currency,
      currencyPath: t.paths.currency,
      pins: t.pins,
      pinPaths: t.paths.pins,
    };
  });
}

function pinPath(t: ResolvableTransfer, field: keyof LedgerPins): string {
  return t.pinPaths[field] ?? field;
}

/** The crosswalk's account for this side: by IBAN, else (switch on) by other id or institution BIC. */
function mappedAccount(side: Side, ref: ReferenceData): { id?: string; by: string; path: string } {
  if (side.iban !== undefined)
    return { ...opt(ref.ibans.get(side.iban)), by: `IBAN ${side.iban}`, path: side.ibanPath };
  if (side.otherId !== undefined) {
    const id = ref.otherIds?.get(side.otherId);
    return { ...opt(id), by: `other account id ${side.otherId}`, path: side.otherIdPath };
  }
  if (side.fiToFi && side.bic !== undefined) {
    // An institution's BIC names its account only when the crosswalk allows exactly one.
    const allowed = ref.bics.get(normalizeBic(side.bic))?.accountIds;
    const only = allowed?.size === 1 ? [...allowed][0] : undefined;
    return { ...opt(only), by: `the single account of BIC ${side.bic}`, path: side.ibanPath };
  }
  return { by: 'any account id', path: side.ibanPath };
}

function opt(id: string | undefined): { id?: string } {
  return id === undefined ? {} : { id };
}

function resolveAccount(
  is: Issues,
  t: ResolvableTransfer,
  side: Side,
  field: 'source_account_id' | 'target_account_id',
  ref: ReferenceData,
) {
  if (side.iban === undefined && ref.nonIbanAccounts !== true) {
    return is.add('required', side.ibanPath, 'IBAN is required (iso20022.allow_non_iban_accounts is off)');
  }
  const pinned = t.pins[field];
  const mapped = mappedAccount(side, ref);
  if (pinned !== undefined && mapped.id !== undefined && pinned !== mapped.id) {
    is.add(
      'crosswalk_mismatch',
      pinPath(t, field),
      `pinned account ${pinned}, but ${mapped.by} maps to ${mapped.id}`,
    );
  }
  const account = pinned ?? mapped.id;
  if (account === undefined)
    return is.add('account_unresolved', mapped.path, `no pin and no crosswalk entry for ${mapped.by}`);
  const entry = side.bic === undefined ? undefined : ref.bics.get(normalizeBic(side.bic));
  if (side.bic !== undefined && ref.bics.size > 0 && entry === undefined) {
    is.add('crosswalk_mismatch', side.bicPath, `BIC ${side.bic} is not in the BIC crosswalk`);
  }
  if (entry?.accountIds !== undefined && !entry.accountIds.has(account)) {
    is.add('crosswalk_mismatch', side.bicPath, `account ${account} is not allowed for BIC ${side.bic}`);
  }
  return account;
}

function resolveLedger(is: Issues, t: ResolvableTransfer, ref: ReferenceData): string | undefined {
  const ledgerOf = (side: Side) =>
    side.bic === undefined ? undefined : ref.bics.get(normalizeBic(side.bic))?.ledgerId;
  const source = ledgerOf(t.source);
  const target = ledgerOf(t.target);
  if (source !== undefined && target !== undefined && source !== target) {
    is.add(
      'crosswalk_mismatch',
      t.target.bicPath,
      `BIC ${t.target.bic} settles on ledger ${target}, not ${source}`,
    );
  }
  const pinned = t.pins.ledger_id;
  for (const mapped of [source, target]) {
    if (pinned !== undefined && mapped !== undefined && pinned !== mapped) {
      is.add(
        'crosswalk_mismatch',
        pinPath(t, 'ledger_id'),
        `pinned ledger ${pinned}, but the BIC crosswalk says ${mapped}`,
      );
      break;
    }
  }
  const ledger = pinned ?? source ?? target;
  return (
    ledger ??
    is.add('ledger_unresolved', t.source.bicPath, 'no ledger pin and no BIC crosswalk entry names a ledger')
  );
}

function resolveAsset(is: Issues, t: ResolvableTransfer, ref: ReferenceData): string | undefined {
  const pinned = t.pins.asset_definition_id;
  const mapped = ref.currencies.get(t.currency);
  if (pinned !== undefined && mapped !== undefined && pinned !== mapped) {
    is.add(
      'crosswalk_mismatch',
      pinPath(t, 'asset_definition_id'),
      `pinned asset ${pinned}, but ${t.currency} maps to ${mapped}`,
    );
  }
  return (
    pinned ??
    mapped ??
    is.add('asset_unresolved', t.currencyPath, `no asset pin and no crosswalk entry for ${t.currency}`)
  );
}

export type ResolveResult =
  | { readonly ok: true; readonly contexts: readonly LedgerContext[] }
  | { readonly ok: false; readonly errors: IsoValidationError[] };

export function resolveTransfer(
  t: ResolvableTransfer,
  ref: ReferenceData,
  is: Issues,
): LedgerContext | undefined {
  const ledger = resolveLedger(is, t, ref);
  const source = resolveAccount(is, t, t.source, 'source_account_id', ref);
  const target = resolveAccount(is, t, t.target, 'target_account_id', ref);
  const asset = resolveAsset(is, t, ref);
  if (ledger === undefined || source === undefined || target === undefined || asset === undefined)
    return undefined;
  return {
    ledger_id: ledger,
    source_account_id: source,
    target_account_id: target,
    asset_definition_id: asset,
  };
}

/** Resolves every transaction of the message; all failures of all transactions are reported. */
export function resolve(message: Pacs008Message | Pacs009Message, ref: ReferenceData): ResolveResult {
  const is = new Issues();
  const contexts = transfersOf(message).map((t) => resolveTransfer(t, ref, is));
  if (!is.ok) return { ok: false, errors: is.errors };
  return { ok: true, contexts: contexts.filter((c): c is LedgerContext => c !== undefined) };
}
