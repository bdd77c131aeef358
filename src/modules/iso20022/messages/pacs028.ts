// pacs.028 FIToFIPaymentStatusRequest (read per pacs.028.001.04; internal helper, no route): the
// request's own ids and, per transaction, the original message id and references asked about.

import { type Issues, optText } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import {
  type ExtractContext,
  must,
  type OriginalGroup,
  type OriginalTransactionRefs,
  readGroupHeader,
  readOriginalGroup,
  readOriginalRefs,
} from './common.js';
import type { AppHeader } from './head001.js';

export const PACS028_ROOT = 'FIToFIPmtStsReq';

export interface StatusRequestTransaction {
  readonly statusRequestId: string | undefined;
  readonly originalMessageId: string;
  readonly refs: OriginalTransactionRefs;
}

export interface Pacs028Message {
  readonly kind: 'pacs028';
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly originalGroups: readonly OriginalGroup[];
  readonly transactions: readonly StatusRequestTransaction[];
}

function readTransaction(tx: XmlCursor, is: Issues, group: OriginalGroup | undefined) {
  const original = readOriginalGroup(tx.child('OrgnlGrpInf'), is) ?? group;
  if (original === undefined) is.missing(tx.at('OrgnlGrpInf', 'OrgnlMsgId').path);
  return {
    statusRequestId: optText(is, tx.child('StsReqId')),
    originalMessageId: original?.messageId,
    refs: readOriginalRefs(tx, is),
  };
}

export function extractPacs028(ctx: ExtractContext): Pacs028Message | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const originalGroups = root.all('OrgnlGrpInf').map((g) => must(readOriginalGroup(g, is)));
  const txs = root.all('TxInf');
  if (originalGroups.length === 0 && txs.length === 0) is.missing(root.at('OrgnlGrpInf', 'OrgnlMsgId').path);
  const single = originalGroups.length === 1 ? originalGroups[0] : undefined;
  const transactions = txs.map((tx) => readTransaction(tx, is, single));
  if (!is.ok) return undefined;
  return {
    kind: 'pacs028',
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    originalGroups,
    transactions: transactions.map((t) => ({ ...t, originalMessageId: must(t.originalMessageId) })),
  };
}
