// pacs.004 PaymentReturn (read per pacs.004.001.10) and pacs.007 FIToFIPaymentReversal (per
// pacs.007.001.10): one family, same shape. Per transaction: the original message id (own
// OrgnlGrpInf, else the group's), original references, the returned or reversed amount, and the
// reason code (own RtrRsnInf/RvslRsnInf, else the group's).

import { type IsoAmount, type Issues, optDate, optText, reqAmount } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import {
  checkCount,
  type ExtractContext,
  must,
  type OriginalGroup,
  type OriginalTransactionRefs,
  type Reason,
  readGroupHeader,
  readOriginalGroup,
  readOriginalRefs,
  readReasons,
} from './common.js';
import type { AppHeader } from './head001.js';

export const PACS004_ROOT = 'PmtRtr';
export const PACS007_ROOT = 'FIToFIPmtRvsl';

interface Shape {
  readonly idElement: string;
  readonly amountElement: string;
  readonly reasonElement: string;
}

const RETURN: Shape = { idElement: 'RtrId', amountElement: 'RtrdIntrBkSttlmAmt', reasonElement: 'RtrRsnInf' };
const REVERSAL: Shape = {
  idElement: 'RvslId',
  amountElement: 'RvsdIntrBkSttlmAmt',
  reasonElement: 'RvslRsnInf',
};

export interface ReturnTransaction {
  /** RtrId (pacs.004) or RvslId (pacs.007). */
  readonly id: string | undefined;
  readonly originalMessageId: string;
  readonly refs: OriginalTransactionRefs;
  /** RtrdIntrBkSttlmAmt (pacs.004) or RvsdIntrBkSttlmAmt (pacs.007). */
  readonly amount: IsoAmount;
  readonly settlementDate: string | undefined;
  /** The first reason's code (AC04, AM05, MS03, …). */
  readonly reasonCode: string | undefined;
  readonly reasons: readonly Reason[];
}

export interface ReturnMessage<K extends 'pacs004' | 'pacs007'> {
  readonly kind: K;
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly original: OriginalGroup | undefined;
  readonly transactions: readonly ReturnTransaction[];
}

export type Pacs004Message = ReturnMessage<'pacs004'>;
export type Pacs007Message = ReturnMessage<'pacs007'>;

function readTransaction(
  tx: XmlCursor,
  is: Issues,
  shape: Shape,
  group: OriginalGroup | undefined,
  groupReasons: Reason[],
) {
  const original = readOriginalGroup(tx.child('OrgnlGrpInf'), is) ?? group;
  if (original === undefined) is.missing(tx.at('OrgnlGrpInf', 'OrgnlMsgId').path);
  const amountAt = tx.child(shape.amountElement);
  const amount = reqAmount(is, amountAt, amountAt.attr('Ccy'));
  const own = readReasons(tx, shape.reasonElement, is);
  const reasons = own.length > 0 ? own : groupReasons;
  const reasonCode = reasons.find((r) => r.code !== undefined)?.code;
  if (reasonCode === undefined && reasons.every((r) => r.proprietary === undefined)) {
    is.missing(tx.at(shape.reasonElement, 'Rsn', 'Cd').path);
  }
  return {
    id: optText(is, tx.child(shape.idElement)),
    originalMessageId: original?.messageId,
    refs: readOriginalRefs(tx, is),
    amount,
    settlementDate: optDate(is, tx.child('IntrBkSttlmDt')),
    reasonCode,
    reasons,
  };
}

function extract<K extends 'pacs004' | 'pacs007'>(
  ctx: ExtractContext,
  kind: K,
  shape: Shape,
): ReturnMessage<K> | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  checkCount(is, root.at('GrpHdr', 'NbOfTxs'), root.count('TxInf'), true);
  const groupAt = root.child('OrgnlGrpInf');
  const original = readOriginalGroup(groupAt, is);
  const groupReasons = readReasons(groupAt, shape.reasonElement, is);
  const txs = root.all('TxInf');
  if (txs.length === 0) is.missing(root.child('TxInf').path);
  const transactions = txs.map((tx) => readTransaction(tx, is, shape, original, groupReasons));
  if (!is.ok) return undefined;
  return {
    kind,
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    original,
    transactions: transactions.map((t) => ({
      ...t,
      originalMessageId: must(t.originalMessageId),
      amount: must(t.amount),
    })),
  };
}

export const extractPacs004 = (ctx: ExtractContext) => extract(ctx, 'pacs004', RETURN);
export const extractPacs007 = (ctx: ExtractContext) => extract(ctx, 'pacs007', REVERSAL);
