// pacs.002 FIToFIPaymentStatusReport in (read per pacs.002.001.11): the original message id, the
// group and transaction statuses and their reasons. Status meanings: README "pacs.002 statuses".

import { type Issues, optCode, optDateTime, optText } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import {
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

export const PACS002_ROOT = 'FIToFIPmtStsRpt';

/** ExternalPaymentTransactionStatus1Code / ExternalPaymentGroupStatus1Code values (ISO external code list). */
export const PAYMENT_STATUS_CODES: ReadonlySet<string> = new Set([
  'ACCC',
  'ACCP',
  'ACFC',
  'ACIS',
  'ACPD',
  'ACSC',
  'ACSP',
  'ACTC',
  'ACWC',
  'ACWP',
  'BLCK',
  'CANC',
  'PART',
  'PATC',
  'PDNG',
  'PRES',
  'RCVD',
  'RJCT',
]);

export interface Pacs002Group {
  readonly original: OriginalGroup;
  readonly status: string | undefined;
  readonly reasons: readonly Reason[];
}

export interface Pacs002Transaction {
  readonly statusId: string | undefined;
  /** The transaction's own OrgnlGrpInf, else the (single) group's. */
  readonly originalMessageId: string | undefined;
  readonly refs: OriginalTransactionRefs;
  readonly status: string | undefined;
  readonly reasons: readonly Reason[];
  readonly acceptanceTime: string | undefined;
}

export interface Pacs002Message {
  readonly kind: 'pacs002';
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly groups: readonly Pacs002Group[];
  readonly transactions: readonly Pacs002Transaction[];
}

interface GroupDefaults {
  readonly messageId: string | undefined;
  readonly status: string | undefined;
}

function readTransaction(tx: XmlCursor, is: Issues, group: GroupDefaults): Pacs002Transaction {
  const own = readOriginalGroup(tx.child('OrgnlGrpInf'), is);
  const originalMessageId = own?.messageId ?? group.messageId;
  if (originalMessageId === undefined) is.missing(tx.at('OrgnlGrpInf', 'OrgnlMsgId').path);
  const statusAt = tx.child('TxSts');
  const status = optCode(is, statusAt, PAYMENT_STATUS_CODES);
  // A transaction without its own status takes the group status (ISO usage rule of TxSts).
  if (!statusAt.exists && group.status === undefined) is.missing(statusAt.path);
  return {
    statusId: optText(is, tx.child('StsId')),
    originalMessageId,
    refs: readOriginalRefs(tx, is),
    status: status ?? group.status,
    reasons: readReasons(tx, 'StsRsnInf', is),
    acceptanceTime: optDateTime(is, tx.child('AccptncDtTm')),
  };
}

export function extractPacs002(ctx: ExtractContext): Pacs002Message | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const groups = root.all('OrgnlGrpInfAndSts').map((g) => ({
    original: must(readOriginalGroup(g, is)),
    status: optCode(is, g.child('GrpSts'), PAYMENT_STATUS_CODES),
    reasons: readReasons(g, 'StsRsnInf', is),
  }));
  const txs = root.all('TxInfAndSts');
  if (groups.length === 0 && txs.length === 0) is.missing(root.at('OrgnlGrpInfAndSts', 'OrgnlMsgId').path);
  const groupAt = root.all('OrgnlGrpInfAndSts');
  groups.forEach((g, i) => {
    if (txs.length === 0 && g.status === undefined) is.missing(groupAt[i]?.child('GrpSts').path ?? '');
  });
  // A transaction may inherit the original message id only when the report covers one group.
  const single = groups.length === 1 ? groups[0] : undefined;
  const defaults = { messageId: single?.original.messageId, status: single?.status };
  const transactions = txs.map((tx) => readTransaction(tx, is, defaults));
  if (!is.ok) return undefined;
  return {
    kind: 'pacs002',
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    groups,
    transactions,
  };
}
