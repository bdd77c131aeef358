// Builds sese.024.001.10 SecuritiesSettlementTransactionStatusAdvice (subset, element names per
// the ISO message definition; no schema in test/iso20022/xsd): TxId, and any of the processing
// status (PrcgSts), matching status (MtchgSts) and settlement status (SttlmSts). A status without
// a reason code is written with NoSpcfdRsn NORE; with one, as Rsn/Cd/Cd.

import { Issues } from '../validate/fields.js';
import { type BuildResult, code, text } from './inputs.js';
import { el, isoDocument, opt, renderXml, type XmlElement } from './xml-writer.js';

export const SESE024_DEFINITION = 'sese.024.001.10';

/** Friendly names of the choices, mapped to their element names. */
const PROCESSING = {
  accepted: 'AckdAccptd',
  pending: 'PdgPrcg',
  rejected: 'Rjctd',
  repair: 'Rpr',
  cancelled: 'Canc',
} as const;
const SETTLEMENT = { pending: 'Pdg', failing: 'Flng' } as const;
const MATCHING = { matched: 'Mtchd', unmatched: 'Umtchd' } as const;

export interface StatusInput<S extends string> {
  readonly status: S;
  /** An ISO reason code (e.g. SAFE, LACK, CLAC, MONY); without one, NoSpcfdRsn NORE is written. */
  readonly reasonCode?: string | undefined;
}

export interface Sese024Input {
  readonly accountOwnerTransactionId: string;
  readonly accountServicerTransactionId?: string | undefined;
  readonly processing?: StatusInput<keyof typeof PROCESSING> | undefined;
  readonly matching?: StatusInput<keyof typeof MATCHING> | undefined;
  readonly settlement?: StatusInput<keyof typeof SETTLEMENT> | undefined;
}

function reasoned(element: string, reasonCode: string | undefined): XmlElement {
  return reasonCode === undefined
    ? el(element, [el('NoSpcfdRsn', 'NORE')])
    : el(element, [el('Rsn', [el('Cd', [el('Cd', reasonCode)])])]);
}

function choice<S extends string>(
  is: Issues,
  input: StatusInput<S> | undefined,
  names: Readonly<Record<S, string>>,
  path: string,
) {
  if (input === undefined) return undefined;
  const element = Object.hasOwn(names, input.status) ? names[input.status] : undefined;
  if (element === undefined)
    return is.add('code_unknown', `${path}.status`, `status is one of ${Object.keys(names).join(', ')}`);
  return reasoned(element, code(is, input.reasonCode, `${path}.reasonCode`, undefined, false));
}

function matching(is: Issues, input: Sese024Input['matching']): XmlElement | undefined {
  if (input === undefined) return undefined;
  // Mtchd (ProprietaryReason4) carries no reason choice; Umtchd does.
  if (input.status === 'matched') return el('MtchgSts', [el('Mtchd', [])]);
  const inner = choice<keyof typeof MATCHING>(is, input, MATCHING, 'matching');
  return inner === undefined ? undefined : el('MtchgSts', [inner]);
}

export function buildSese024(input: Sese024Input): BuildResult {
  const is = new Issues();
  const processing = choice(is, input.processing, PROCESSING, 'processing');
  const settlement = choice(is, input.settlement, SETTLEMENT, 'settlement');
  const match = matching(is, input.matching);
  if (input.processing === undefined && input.matching === undefined && input.settlement === undefined) {
    is.missing('processing');
  }
  const txId = el('TxId', [
    el('AcctOwnrTxId', text(is, input.accountOwnerTransactionId, 'accountOwnerTransactionId') ?? ''),
    opt('AcctSvcrTxId', text(is, input.accountServicerTransactionId, 'accountServicerTransactionId', false)),
  ]);
  if (!is.ok) return { ok: false, errors: is.errors };
  const message = el('SctiesSttlmTxStsAdvc', [
    txId,
    processing === undefined ? undefined : el('PrcgSts', [processing]),
    match,
    settlement === undefined ? undefined : el('SttlmSts', [settlement]),
  ]);
  return { ok: true, xml: renderXml(isoDocument(SESE024_DEFINITION, message)) };
}
