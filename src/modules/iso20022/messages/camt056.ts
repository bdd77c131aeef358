// camt.056 FIToFIPaymentCancellationRequest (read per camt.056.001.09): the assignment, and per
// underlying transaction the original message id (own OrgnlGrpInf, else the underlying group's
// OrgnlGrpInfAndCxl), the original references and the cancellation reason.

import {
  type IsoAmount,
  type Issues,
  optAmount,
  optBic,
  optDate,
  optText,
  reqDateTime,
  reqText,
} from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import {
  agentBic,
  type ExtractContext,
  must,
  type OriginalGroup,
  type OriginalTransactionRefs,
  type Reason,
  readOriginalGroup,
  readOriginalRefs,
  readReasons,
} from './common.js';
import type { AppHeader } from './head001.js';

export const CAMT056_ROOT = 'FIToFIPmtCxlReq';

export interface Assignment {
  readonly id: string;
  readonly creationTime: string;
  /** Assgnr/Agt/FinInstnId/BICFI when the assigner is an agent identified by BIC. */
  readonly assignerBic: string | undefined;
  readonly assigneeBic: string | undefined;
}

export interface CancellationTransaction {
  readonly cancellationId: string | undefined;
  readonly originalMessageId: string;
  readonly refs: OriginalTransactionRefs;
  readonly originalAmount: IsoAmount | undefined;
  readonly originalSettlementDate: string | undefined;
  /** The first reason's code (DUPL, FRAD, TECH, CUST, …). */
  readonly reasonCode: string | undefined;
  readonly reasons: readonly Reason[];
}

export interface Camt056Message {
  readonly kind: 'camt056';
  readonly messageDefinitionId: string;
  readonly assignment: Assignment;
  readonly caseId: string | undefined;
  readonly appHeader: AppHeader | undefined;
  /** The originals named at group level (OrgnlGrpInfAndCxl), one per underlying block that has one. */
  readonly originalGroups: readonly OriginalGroup[];
  readonly transactions: readonly CancellationTransaction[];
}

/** Assgnmt: Id, Assgnr, Assgne, CreDtTm (shared with camt.029). */
export function readAssignment(c: XmlCursor, is: Issues) {
  return {
    id: reqText(is, c.child('Id')),
    creationTime: reqDateTime(is, c.child('CreDtTm')),
    assignerBic: optBic(is, agentBic(c.child('Assgnr'), 'Agt')),
    assigneeBic: optBic(is, agentBic(c.child('Assgne'), 'Agt')),
  };
}

function readTransaction(
  tx: XmlCursor,
  is: Issues,
  group: OriginalGroup | undefined,
  groupReasons: Reason[],
) {
  const original = readOriginalGroup(tx.child('OrgnlGrpInf'), is) ?? group;
  if (original === undefined) is.missing(tx.at('OrgnlGrpInf', 'OrgnlMsgId').path);
  const own = readReasons(tx, 'CxlRsnInf', is);
  const reasons = own.length > 0 ? own : groupReasons;
  const amountAt = tx.child('OrgnlIntrBkSttlmAmt');
  return {
    cancellationId: optText(is, tx.child('CxlId')),
    originalMessageId: original?.messageId,
    refs: readOriginalRefs(tx, is),
    originalAmount: optAmount(is, amountAt, amountAt.attr('Ccy')),
    originalSettlementDate: optDate(is, tx.child('OrgnlIntrBkSttlmDt')),
    reasonCode: reasons.find((r) => r.code !== undefined)?.code,
    reasons,
  };
}

export function extractCamt056(ctx: ExtractContext): Camt056Message | undefined {
  const { root, issues: is } = ctx;
  const assignment = readAssignment(root.child('Assgnmt'), is);
  const caseId = optText(is, root.at('Case', 'Id'));
  const underlyings = root.all('Undrlyg');
  if (underlyings.length === 0) is.missing(root.child('Undrlyg').path);
  const originalGroups: OriginalGroup[] = [];
  const transactions = underlyings.flatMap((u) => {
    const groupAt = u.child('OrgnlGrpInfAndCxl');
    const group = readOriginalGroup(groupAt, is);
    if (group !== undefined) originalGroups.push(group);
    const groupReasons = readReasons(groupAt, 'CxlRsnInf', is);
    const txs = u.all('TxInf');
    if (txs.length === 0 && group === undefined) is.missing(u.at('TxInf', 'OrgnlGrpInf', 'OrgnlMsgId').path);
    return txs.map((tx) => readTransaction(tx, is, group, groupReasons));
  });
  if (!is.ok) return undefined;
  return {
    kind: 'camt056',
    messageDefinitionId: ctx.messageDefinitionId,
    assignment: { ...assignment, id: must(assignment.id), creationTime: must(assignment.creationTime) },
    caseId,
    appHeader: ctx.appHeader,
    originalGroups,
    transactions: transactions.map((t) => ({ ...t, originalMessageId: must(t.originalMessageId) })),
  };
}
