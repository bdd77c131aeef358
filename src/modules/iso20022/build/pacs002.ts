// Builds pacs.002.001.11 FIToFIPaymentStatusReport: GrpHdr, OrgnlGrpInfAndSts (original message
// id and definition id, optional group status) and one TxInfAndSts per transaction with its
// status and, for RJCT, the reason (StsRsnInf/Rsn/Cd). Status meanings: README "pacs.002 statuses".
// Deterministic: the creation time is an input.

import { PAYMENT_STATUS_CODES } from '../messages/pacs002.js';
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

export const PACS002_DEFINITION = 'pacs.002.001.11';

export type PaymentStatus =
  | 'ACTC'
  | 'ACCP'
  | 'ACSP'
  | 'ACSC'
  | 'ACWC'
  | 'ACWP'
  | 'ACCC'
  | 'PDNG'
  | 'RCVD'
  | 'RJCT';
/** A group status may also be PART: some transactions accepted, some rejected. */
export type GroupStatus = PaymentStatus | 'PART';

export interface Pacs002TransactionInput extends OriginalTransactionInput {
  readonly statusId?: string | undefined;
  readonly status: PaymentStatus;
  /** Required when the status is RJCT (or give proprietaryReason). */
  readonly reasonCode?: string | undefined;
  readonly proprietaryReason?: string | undefined;
  readonly additionalInfo?: readonly string[] | undefined;
  readonly acceptanceTime?: string | undefined;
}

export interface Pacs002Input {
  readonly messageId: string;
  readonly creationTime: string;
  readonly instructingAgentBic?: string | undefined;
  readonly instructedAgentBic?: string | undefined;
  readonly original: OriginalMessageInput;
  readonly groupStatus?: GroupStatus | undefined;
  readonly transactions: readonly Pacs002TransactionInput[];
}

function transaction(is: Issues, t: Pacs002TransactionInput, path: string): XmlElement {
  const status = code(is, t.status, `${path}.status`, PAYMENT_STATUS_CODES);
  const r = reason(is, t, path, t.status === 'RJCT');
  return el('TxInfAndSts', [
    opt('StsId', text(is, t.statusId, `${path}.statusId`, false)),
    ...originalRefs(is, t, path),
    opt('TxSts', status),
    reasonElement('StsRsnInf', r),
    opt('AccptncDtTm', dateTime(is, t.acceptanceTime, `${path}.acceptanceTime`, false)),
  ]);
}

export function buildPacs002(input: Pacs002Input): BuildResult {
  const is = new Issues();
  const o = original(is, input.original, 'original');
  if (input.transactions.length === 0 && input.groupStatus === undefined) is.missing('transactions');
  const header = el('GrpHdr', [
    el('MsgId', text(is, input.messageId, 'messageId') ?? ''),
    el('CreDtTm', dateTime(is, input.creationTime, 'creationTime') ?? ''),
    agent('InstgAgt', bic(is, input.instructingAgentBic, 'instructingAgentBic', false)),
    agent('InstdAgt', bic(is, input.instructedAgentBic, 'instructedAgentBic', false)),
  ]);
  const group = el('OrgnlGrpInfAndSts', [
    ...(o === undefined ? [] : originalFields(o)),
    opt('GrpSts', code(is, input.groupStatus, 'groupStatus', PAYMENT_STATUS_CODES, false)),
  ]);
  const txs = input.transactions.map((t, i) => transaction(is, t, `transactions[${i}]`));
  if (!is.ok) return { ok: false, errors: is.errors };
  return {
    ok: true,
    xml: renderXml(isoDocument(PACS002_DEFINITION, el('FIToFIPmtStsRpt', [header, group, ...txs]))),
  };
}
