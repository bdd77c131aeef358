// pain.002 CustomerPaymentStatusReport (read per pain.002.001.11; internal helper, no route): the
// original message (OrgnlGrpInfAndSts, required), its group status, and per original payment
// information block the transaction statuses with their reasons.

import { type Issues, optCode, optText, reqText } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import {
  type ExtractContext,
  must,
  type OriginalGroup,
  type Reason,
  readGroupHeader,
  readOriginalGroup,
  readReasons,
} from './common.js';
import type { AppHeader } from './head001.js';
import { PAYMENT_STATUS_CODES } from './pacs002.js';

export const PAIN002_ROOT = 'CstmrPmtStsRpt';

export interface CustomerTransactionStatus {
  readonly originalInstructionId: string | undefined;
  readonly originalEndToEndId: string | undefined;
  readonly status: string | undefined;
  readonly reasons: readonly Reason[];
}

export interface CustomerPaymentStatus {
  readonly originalPaymentInformationId: string;
  readonly status: string | undefined;
  readonly reasons: readonly Reason[];
  readonly transactions: readonly CustomerTransactionStatus[];
}

export interface Pain002Message {
  readonly kind: 'pain002';
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly original: OriginalGroup;
  readonly groupStatus: string | undefined;
  readonly groupReasons: readonly Reason[];
  readonly payments: readonly CustomerPaymentStatus[];
}

function readPayment(p: XmlCursor, is: Issues) {
  return {
    originalPaymentInformationId: reqText(is, p.child('OrgnlPmtInfId')),
    status: optCode(is, p.child('PmtInfSts'), PAYMENT_STATUS_CODES),
    reasons: readReasons(p, 'StsRsnInf', is),
    transactions: p.all('TxInfAndSts').map((t) => ({
      originalInstructionId: optText(is, t.child('OrgnlInstrId')),
      originalEndToEndId: optText(is, t.child('OrgnlEndToEndId')),
      status: optCode(is, t.child('TxSts'), PAYMENT_STATUS_CODES),
      reasons: readReasons(t, 'StsRsnInf', is),
    })),
  };
}

export function extractPain002(ctx: ExtractContext): Pain002Message | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const groupAt = root.child('OrgnlGrpInfAndSts');
  const original = groupAt.exists ? readOriginalGroup(groupAt, is) : is.missing(groupAt.path);
  const groupStatus = optCode(is, groupAt.child('GrpSts'), PAYMENT_STATUS_CODES);
  const groupReasons = readReasons(groupAt, 'StsRsnInf', is);
  const payments = root.all('OrgnlPmtInfAndSts').map((p) => readPayment(p, is));
  if (!is.ok) return undefined;
  return {
    kind: 'pain002',
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    original: must(original),
    groupStatus,
    groupReasons,
    payments: payments.map((p) => ({
      ...p,
      originalPaymentInformationId: must(p.originalPaymentInformationId),
    })),
  };
}
