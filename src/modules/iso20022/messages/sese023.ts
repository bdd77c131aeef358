// sese.023 SecuritiesSettlementTransactionInstruction (read per sese.023.001.09; subset below;
// mapping table in the README). Required: TxId, SctiesMvmntTp, Pmt, TradDtls/SttlmDt, the ISIN,
// the settlement quantity, the safekeeping account; and SttlmAmt when the instruction is against
// payment (DVP/RVP).

import { type IsoAmount, type Issues, optCode, optIban, reqAmount, reqText } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { type ExtractContext, must } from './common.js';
import type { AppHeader } from './head001.js';
import { choiceDate } from './pain001.js';
import {
  type PaymentType,
  readIsin,
  readMovement,
  readParties,
  readQuantity,
  type SecuritiesQuantity,
  type SettlementParties,
} from './securities.js';

export const SESE023_ROOT = 'SctiesSttlmTxInstr';
const CREDIT_DEBIT: ReadonlySet<string> = new Set(['CRDT', 'DBIT']);

export interface Sese023Message {
  readonly kind: 'sese023';
  readonly messageDefinitionId: string;
  readonly appHeader: AppHeader | undefined;
  readonly transactionId: string;
  readonly movement: 'DELI' | 'RECE';
  readonly payment: 'APMT' | 'FREE';
  readonly paymentType: PaymentType;
  readonly tradeDate: string | undefined;
  readonly settlementDate: string;
  readonly isin: string;
  readonly quantity: SecuritiesQuantity;
  readonly safekeepingAccount: string;
  /** QtyAndAcctDtls/CshAcct/IBAN: the cash account of the payment leg. */
  readonly cashAccountIban: string | undefined;
  readonly delivering: SettlementParties | undefined;
  readonly receiving: SettlementParties | undefined;
  readonly settlementAmount: IsoAmount | undefined;
  readonly creditDebit: string | undefined;
}

/** TradDt / SttlmDt / FctvSttlmDt are choices of a date (`Dt/Dt` or `Dt/DtTm`) or a date code. */
export function tradeDetailDate(is: Issues, c: XmlCursor, required: boolean): string | undefined {
  if (!c.exists && !required) return undefined;
  return choiceDate(is, c.child('Dt'));
}

/** SttlmAmt / SttldAmt (AmountAndDirection): required against payment, absent or optional free of payment. */
export function readCashLeg(is: Issues, c: XmlCursor, paymentType: PaymentType | undefined) {
  if (!c.exists) {
    if (paymentType === 'DVP' || paymentType === 'RVP') is.missing(c.child('Amt').path);
    return { amount: undefined, creditDebit: undefined };
  }
  const amountAt = c.child('Amt');
  return {
    amount: reqAmount(is, amountAt, amountAt.attr('Ccy')),
    creditDebit: optCode(is, c.child('CdtDbtInd'), CREDIT_DEBIT),
  };
}

export function extractSese023(ctx: ExtractContext): Sese023Message | undefined {
  const { root, issues: is } = ctx;
  const transactionId = reqText(is, root.child('TxId'));
  const m = readMovement(is, root.child('SttlmTpAndAddtlParams'));
  const trade = root.child('TradDtls');
  const dates = {
    tradeDate: tradeDetailDate(is, trade.child('TradDt'), false),
    settlementDate: tradeDetailDate(is, trade.child('SttlmDt'), true),
  };
  const isin = readIsin(is, root.child('FinInstrmId'));
  const qty = root.child('QtyAndAcctDtls');
  const quantity = readQuantity(is, qty.at('SttlmQty', 'Qty'));
  const safekeepingAccount = reqText(is, qty.at('SfkpgAcct', 'Id'));
  const cashAccountIban = optIban(is, qty.at('CshAcct', 'IBAN'));
  const delivering = readParties(is, root.child('DlvrgSttlmPties'));
  const receiving = readParties(is, root.child('RcvgSttlmPties'));
  const cash = readCashLeg(is, root.child('SttlmAmt'), m.paymentType);
  if (!is.ok) return undefined;
  return {
    kind: 'sese023',
    messageDefinitionId: ctx.messageDefinitionId,
    appHeader: ctx.appHeader,
    transactionId: must(transactionId),
    movement: must(m.movement),
    payment: must(m.payment),
    paymentType: must(m.paymentType),
    tradeDate: dates.tradeDate,
    settlementDate: must(dates.settlementDate),
    isin: must(isin),
    quantity: must(quantity),
    safekeepingAccount: must(safekeepingAccount),
    cashAccountIban,
    delivering,
    receiving,
    settlementAmount: cash.amount,
    creditDebit: cash.creditDebit,
  };
}
