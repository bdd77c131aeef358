// pacs.029 MultilateralSettlementRequest (read per pacs.029.001.02; internal helper, no route; no
// schema in test/iso20022/xsd, element names from the ISO message definition): GrpHdr MsgId and
// CreDtTm, and per SttlmReq its InstrId and movement records (Id, Amt/Amt with @Ccy, Amt/CdtDbt,
// optional PtcptAcct/Id/IBAN). A multilateral settlement needs at least two movements.

import { type IsoAmount, type Issues, optCode, optIban, reqAmount, reqText } from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { type ExtractContext, must, readGroupHeader } from './common.js';
import type { AppHeader } from './head001.js';

export const PACS029_ROOT = 'MulSttlmReq';
const MOVEMENTS_MIN = 2;
const CREDIT_DEBIT: ReadonlySet<string> = new Set(['CRDT', 'DBIT']);

export interface MovementRecord {
  readonly id: string;
  readonly amount: IsoAmount;
  readonly creditDebit: 'CRDT' | 'DBIT' | undefined;
  readonly participantIban: string | undefined;
}

export interface SettlementRequest {
  readonly instructionId: string;
  readonly movements: readonly MovementRecord[];
}

export interface Pacs029Message {
  readonly kind: 'pacs029';
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly requests: readonly SettlementRequest[];
}

function readMovement(m: XmlCursor, is: Issues) {
  const amountAt = m.at('Amt', 'Amt');
  return {
    id: reqText(is, m.child('Id')),
    amount: reqAmount(is, amountAt, amountAt.attr('Ccy')),
    creditDebit: optCode(is, m.at('Amt', 'CdtDbt'), CREDIT_DEBIT) as 'CRDT' | 'DBIT' | undefined,
    participantIban: optIban(is, m.at('PtcptAcct', 'Id', 'IBAN')),
  };
}

function readRequest(r: XmlCursor, is: Issues) {
  const movements = r.all('MvmntRcrd');
  if (movements.length < MOVEMENTS_MIN) {
    is.add('required', r.child('MvmntRcrd').path, `at least ${MOVEMENTS_MIN} movement records`);
  }
  return {
    instructionId: reqText(is, r.child('InstrId')),
    movements: movements.map((m) => readMovement(m, is)),
  };
}

export function extractPacs029(ctx: ExtractContext): Pacs029Message | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const requests = root.all('SttlmReq');
  if (requests.length === 0) is.missing(root.child('SttlmReq').path);
  const read = requests.map((r) => readRequest(r, is));
  if (!is.ok) return undefined;
  return {
    kind: 'pacs029',
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    requests: read.map((r) => ({
      instructionId: must(r.instructionId),
      movements: r.movements.map((m) => ({ ...m, id: must(m.id), amount: must(m.amount) })),
    })),
  };
}
