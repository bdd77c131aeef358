// Resolution of a transfer's ledger context (README "Resolution"): each field comes from the
// message's pins first, else from the crosswalks of reference-data.ts. A pin that contradicts a
// crosswalk entry is a `crosswalk_mismatch`; a field found nowhere is `ledger_unresolved`,
// `account_unresolved` or `asset_unresolved`, reported at the path of the field that would have
// resolved it (the IBAN for an account, the currency for the asset, the BIC for the ledger).

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
  readonly iban: string;
  readonly ibanPath: string;
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

/** One ResolvableTransfer per transaction of a pacs.008 or pacs.009 (XML or flat). */
export function transfersOf(message: Pacs008Message | Pacs009Message): ResolvableTransfer[] {
  if (message.kind === 'pacs008') {
    return message.transactions.map((t) => ({
      source: {
        iban: t.debtorIban,
        ibanPath: t.paths.debtorIban,
        bic: t.debtorBic,
        bicPath: t.paths.debtorBic,
      },
      target: {
        iban: t.creditorIban,
        ibanPath: t.paths.creditorIban,
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
      source: { iban: t.debtorIban, ibanPath: t.paths.debtorIban, bic: sourceBic[0], bicPath: sourceBic[1] },
      target: {
        iban: t.creditorIban,
        ibanPath: t.paths.creditorIban,
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

function resolveAccount(
  is: Issues,
  t: ResolvableTransfer,
  side: Side,
  field: 'source_account_id' | 'target_account_id',
  ref: ReferenceData,
) {
  const pinned = t.pins[field];
  const mapped = ref.ibans.get(side.iban);
  if (pinned !== undefined && mapped !== undefined && pinned !== mapped) {
    is.add(
      'crosswalk_mismatch',
      pinPath(t, field),
      `pinned account ${pinned}, but IBAN ${side.iban} maps to ${mapped}`,
    );
  }
  const account = pinned ?? mapped;
  if (account === undefined)
    return is.add('account_unresolved', side.ibanPath, `no pin and no crosswalk entry for IBAN ${side.iban}`);
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
