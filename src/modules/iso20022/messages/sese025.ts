// sese.025 SecuritiesSettlementTransactionConfirmation (read per sese.025.001.09; subset below).
// Required: TxIdDtls/AcctOwnrTxId, SctiesMvmntTp, Pmt, the effective settlement date
// (TradDtls/FctvSttlmDt), the ISIN, the settled quantity and the safekeeping account; SttldAmt
// when the settlement was against payment.

import { type IsoAmount, optText, reqText } from '../validate/fields.js';
import { type ExtractContext, must } from './common.js';
import type { AppHeader } from './head001.js';
import {
  type PaymentType,
  readIsin,
  readMovement,
  readParties,
  readQuantity,
  type SecuritiesQuantity,
  type SettlementParties,
} from './securities.js';
import { readCashLeg, tradeDetailDate } from './sese023.js';

export const SESE025_ROOT = 'SctiesSttlmTxConf';

export interface Sese025Message {
  readonly kind: 'sese025';
  readonly messageDefinitionId: string;
  readonly appHeader: AppHeader | undefined;
  readonly accountOwnerTransactionId: string;
  readonly accountServicerTransactionId: string | undefined;
  readonly movement: 'DELI' | 'RECE';
  readonly payment: 'APMT' | 'FREE';
  readonly paymentType: PaymentType;
  readonly tradeDate: string | undefined;
  readonly settlementDate: string | undefined;
  readonly effectiveSettlementDate: string;
  readonly isin: string;
  readonly settledQuantity: SecuritiesQuantity;
  readonly safekeepingAccount: string;
  readonly delivering: SettlementParties | undefined;
  readonly receiving: SettlementParties | undefined;
  readonly settledAmount: IsoAmount | undefined;
  readonly creditDebit: string | undefined;
}

export function extractSese025(ctx: ExtractContext): Sese025Message | undefined {
  const { root, issues: is } = ctx;
  const ids = root.child('TxIdDtls');
  const accountOwnerTransactionId = reqText(is, ids.child('AcctOwnrTxId'));
  const accountServicerTransactionId = optText(is, ids.child('AcctSvcrTxId'));
  const m = readMovement(is, ids);
  const trade = root.child('TradDtls');
  const tradeDate = tradeDetailDate(is, trade.child('TradDt'), false);
  const settlementDate = tradeDetailDate(is, trade.child('SttlmDt'), false);
  const effectiveSettlementDate = tradeDetailDate(is, trade.child('FctvSttlmDt'), true);
  const isin = readIsin(is, root.child('FinInstrmId'));
  const qty = root.child('QtyAndAcctDtls');
  const settledQuantity = readQuantity(is, qty.at('SttldQty', 'Qty'));
  const safekeepingAccount = reqText(is, qty.at('SfkpgAcct', 'Id'));
  const delivering = readParties(is, root.child('DlvrgSttlmPties'));
  const receiving = readParties(is, root.child('RcvgSttlmPties'));
  const cash = readCashLeg(is, root.child('SttldAmt'), m.paymentType);
  if (!is.ok) return undefined;
  return {
    kind: 'sese025',
    messageDefinitionId: ctx.messageDefinitionId,
    appHeader: ctx.appHeader,
    accountOwnerTransactionId: must(accountOwnerTransactionId),
    accountServicerTransactionId,
    movement: must(m.movement),
    payment: must(m.payment),
    paymentType: must(m.paymentType),
    tradeDate,
    settlementDate,
    effectiveSettlementDate: must(effectiveSettlementDate),
    isin: must(isin),
    settledQuantity: must(settledQuantity),
    safekeepingAccount: must(safekeepingAccount),
    delivering,
    receiving,
    settledAmount: cash.amount,
    creditDebit: cash.creditDebit,
  };
}
