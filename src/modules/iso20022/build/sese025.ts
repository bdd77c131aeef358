// Builds sese.025.001.09 SecuritiesSettlementTransactionConfirmation (subset, element names per
// the ISO message definition; no schema in test/iso20022/xsd): TxIdDtls, TradDtls with the
// effective settlement date, the ISIN, the settled quantity and safekeeping account, the
// securities transaction type, the settlement parties and, against payment, the settled amount.

import { checkQuantity, formatDecimal } from '../validate/amount.js';
import { Issues } from '../validate/fields.js';
import { amountElement } from './fragments.js';
import { type AmountInput, amount, type BuildResult, bic, code, date, isin, text } from './inputs.js';
import { el, isoDocument, opt, renderXml, type XmlElement } from './xml-writer.js';

export const SESE025_DEFINITION = 'sese.025.001.09';
const QUANTITY_ELEMENTS = { unit: 'Unit', face_amount: 'FaceAmt', amortised_value: 'AmtsdVal' } as const;
const MOVEMENTS: ReadonlySet<string> = new Set(['DELI', 'RECE']);
const PAYMENTS: ReadonlySet<string> = new Set(['APMT', 'FREE']);
const CREDIT_DEBIT: ReadonlySet<string> = new Set(['CRDT', 'DBIT']);

export interface PartiesInput {
  readonly depositoryBic?: string | undefined;
  readonly partyBic?: string | undefined;
  readonly partySafekeepingAccount?: string | undefined;
}

export interface Sese025Input {
  readonly accountOwnerTransactionId: string;
  readonly accountServicerTransactionId?: string | undefined;
  readonly movement: 'DELI' | 'RECE';
  readonly payment: 'APMT' | 'FREE';
  readonly tradeDate?: string | undefined;
  readonly settlementDate?: string | undefined;
  readonly effectiveSettlementDate: string;
  readonly isin: string;
  readonly quantity: { readonly type: keyof typeof QUANTITY_ELEMENTS; readonly value: string };
  readonly safekeepingAccount: string;
  /** SttlmParams/SctiesTxTp/Cd; TRAD (trade) by default. */
  readonly securitiesTransactionType?: string | undefined;
  readonly delivering?: PartiesInput | undefined;
  readonly receiving?: PartiesInput | undefined;
  /** Required against payment (APMT). */
  readonly settledAmount?: (AmountInput & { readonly creditDebit: 'CRDT' | 'DBIT' }) | undefined;
}

const dated = (name: string, value: string | undefined) =>
  value === undefined ? undefined : el(name, [el('Dt', [el('Dt', value)])]);

function parties(
  is: Issues,
  name: string,
  p: PartiesInput | undefined,
  path: string,
): XmlElement | undefined {
  if (p === undefined) return undefined;
  const depository = bic(is, p.depositoryBic, `${path}.depositoryBic`, false);
  const party = bic(is, p.partyBic, `${path}.partyBic`, false);
  const account = text(is, p.partySafekeepingAccount, `${path}.partySafekeepingAccount`, false);
  return el(name, [
    depository === undefined ? undefined : el('Dpstry', [el('Id', [el('AnyBIC', depository)])]),
    party === undefined
      ? undefined
      : el('Pty1', [
          el('Id', [el('AnyBIC', party)]),
          account === undefined ? undefined : el('SfkpgAcct', [el('Id', account)]),
        ]),
  ]);
}

function quantity(is: Issues, q: Sese025Input['quantity']): XmlElement | undefined {
  const element = Object.hasOwn(QUANTITY_ELEMENTS, q.type) ? QUANTITY_ELEMENTS[q.type] : undefined;
  if (element === undefined)
    return is.add('code_unknown', 'quantity.type', 'unit, face_amount or amortised_value');
  const value = is.apply(checkQuantity(q.value), 'quantity.value');
  return value === undefined ? undefined : el('SttldQty', [el('Qty', [el(element, formatDecimal(value))])]);
}

function cashLeg(is: Issues, input: Sese025Input): XmlElement | undefined {
  const a = input.settledAmount;
  if (a === undefined) return input.payment === 'APMT' ? is.missing('settledAmount') : undefined;
  const value = amount(is, a, 'settledAmount');
  const direction = code(is, a.creditDebit, 'settledAmount.creditDebit', CREDIT_DEBIT);
  return el('SttldAmt', [amountElement('Amt', value), opt('CdtDbtInd', direction)]);
}

export function buildSese025(input: Sese025Input): BuildResult {
  const is = new Issues();
  const ids = el('TxIdDtls', [
    el('AcctOwnrTxId', text(is, input.accountOwnerTransactionId, 'accountOwnerTransactionId') ?? ''),
    opt('AcctSvcrTxId', text(is, input.accountServicerTransactionId, 'accountServicerTransactionId', false)),
    el('SctiesMvmntTp', code(is, input.movement, 'movement', MOVEMENTS) ?? ''),
    el('Pmt', code(is, input.payment, 'payment', PAYMENTS) ?? ''),
  ]);
  const trade = el('TradDtls', [
    dated('TradDt', date(is, input.tradeDate, 'tradeDate', false)),
    dated('SttlmDt', date(is, input.settlementDate, 'settlementDate', false)),
    dated('FctvSttlmDt', date(is, input.effectiveSettlementDate, 'effectiveSettlementDate')),
  ]);
  const qty = el('QtyAndAcctDtls', [
    quantity(is, input.quantity),
    el('SfkpgAcct', [el('Id', text(is, input.safekeepingAccount, 'safekeepingAccount') ?? '')]),
  ]);
  const txType = code(is, input.securitiesTransactionType ?? 'TRAD', 'securitiesTransactionType') ?? '';
  const message = el('SctiesSttlmTxConf', [
    ids,
    trade,
    el('FinInstrmId', [el('ISIN', isin(is, input.isin, 'isin') ?? '')]),
    qty,
    el('SttlmParams', [el('SctiesTxTp', [el('Cd', txType)])]),
    parties(is, 'DlvrgSttlmPties', input.delivering, 'delivering'),
    parties(is, 'RcvgSttlmPties', input.receiving, 'receiving'),
    cashLeg(is, input),
  ]);
  if (!is.ok) return { ok: false, errors: is.errors };
  return { ok: true, xml: renderXml(isoDocument(SESE025_DEFINITION, message)) };
}
