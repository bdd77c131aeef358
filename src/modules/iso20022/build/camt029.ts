// Builds camt.029.001.10 ResolutionOfInvestigation answering a camt.056 cancellation request:
// Assgnmt, optional RslvdCase, Sts/Conf (CNCL cancelled as requested, RJCR cancellation
// rejected, PECR pending, …) and CxlDtls with the original group and one TxInfAndSts per
// transaction (TxCxlSts ACCR/RJCR/PDCR; a rejection needs a reason). Deterministic: the creation
// time is an input.

import { Issues } from '../validate/fields.js';
import {
  agent,
  type OriginalTransactionInput,
  originalFields,
  originalRefs,
  reasonElement,
} from './fragments.js';
import {
  type BuildResult,
  bic,
  code,
  dateTime,
  type OriginalMessageInput,
  original,
  reason,
  text,
} from './inputs.js';
import { el, isoDocument, opt, renderXml, type XmlElement } from './xml-writer.js';

export const CAMT029_DEFINITION = 'camt.029.001.10';

/** ExternalInvestigationExecutionConfirmation1Code values used for cancellation outcomes. */
export const INVESTIGATION_STATUSES: ReadonlySet<string> = new Set([
  'CNCL',
  'RJCR',
  'PECR',
  'MODI',
  'ACDA',
  'IPAY',
  'ICOV',
  'MCOV',
  'IDUP',
  'INFO',
]);
const GROUP_CANCELLATION_STATUSES: ReadonlySet<string> = new Set(['PACR', 'RJCR', 'ACCR', 'PDCR']);
const TRANSACTION_CANCELLATION_STATUSES: ReadonlySet<string> = new Set(['RJCR', 'ACCR', 'PDCR']);

export interface Camt029TransactionInput extends OriginalTransactionInput {
  readonly cancellationStatusId?: string | undefined;
  /** ACCR accepted, RJCR rejected (a reason is then required), PDCR pending. */
  readonly status: 'ACCR' | 'RJCR' | 'PDCR';
  readonly reasonCode?: string | undefined;
  readonly proprietaryReason?: string | undefined;
  readonly additionalInfo?: readonly string[] | undefined;
}

export interface Camt029Input {
  readonly assignmentId: string;
  readonly creationTime: string;
  readonly assignerBic: string;
  readonly assigneeBic: string;
  /** The case being resolved (camt.056 Case/Id) and its creator; the creator defaults to the assignee. */
  readonly caseId?: string | undefined;
  readonly caseCreatorBic?: string | undefined;
  readonly status: 'CNCL' | 'RJCR' | 'PECR' | 'MODI' | 'ACDA' | 'IPAY' | 'ICOV' | 'MCOV' | 'IDUP' | 'INFO';
  readonly original: OriginalMessageInput;
  readonly groupCancellationStatus?: 'PACR' | 'RJCR' | 'ACCR' | 'PDCR' | undefined;
  readonly transactions: readonly Camt029TransactionInput[];
}

function transaction(is: Issues, t: Camt029TransactionInput, path: string): XmlElement {
  const status = code(is, t.status, `${path}.status`, TRANSACTION_CANCELLATION_STATUSES);
  return el('TxInfAndSts', [
    opt('CxlStsId', text(is, t.cancellationStatusId, `${path}.cancellationStatusId`, false)),
    ...originalRefs(is, t, path),
    opt('TxCxlSts', status),
    reasonElement('CxlStsRsnInf', reason(is, t, path, t.status === 'RJCR')),
  ]);
}

function resolvedCase(is: Issues, input: Camt029Input): XmlElement | undefined {
  const id = text(is, input.caseId, 'caseId', false);
  if (id === undefined) return undefined;
  const creator = bic(is, input.caseCreatorBic ?? input.assigneeBic, 'caseCreatorBic');
  return el('RslvdCase', [el('Id', id), el('Cretr', [agent('Agt', creator)])]);
}

export function buildCamt029(input: Camt029Input): BuildResult {
  const is = new Issues();
  const o = original(is, input.original, 'original');
  const assignment = el('Assgnmt', [
    el('Id', text(is, input.assignmentId, 'assignmentId') ?? ''),
    el('Assgnr', [agent('Agt', bic(is, input.assignerBic, 'assignerBic'))]),
    el('Assgne', [agent('Agt', bic(is, input.assigneeBic, 'assigneeBic'))]),
    el('CreDtTm', dateTime(is, input.creationTime, 'creationTime') ?? ''),
  ]);
  const status = el('Sts', [el('Conf', code(is, input.status, 'status', INVESTIGATION_STATUSES) ?? '')]);
  const group = el('OrgnlGrpInfAndSts', [
    ...(o === undefined ? [] : originalFields(o)),
    opt(
      'GrpCxlSts',
      code(is, input.groupCancellationStatus, 'groupCancellationStatus', GROUP_CANCELLATION_STATUSES, false),
    ),
  ]);
  const txs = input.transactions.map((t, i) => transaction(is, t, `transactions[${i}]`));
  const caseElement = resolvedCase(is, input);
  if (!is.ok) return { ok: false, errors: is.errors };
  const details = el('CxlDtls', [group, ...txs]);
  const message = el('RsltnOfInvstgtn', [assignment, caseElement, status, details]);
  return { ok: true, xml: renderXml(isoDocument(CAMT029_DEFINITION, message)) };
}
