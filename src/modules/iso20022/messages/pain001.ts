// pain.001 CustomerCreditTransferInitiation (read per pain.001.001.10; internal helper, no route):
// group header, and per payment information block the debtor account and agent, the requested
// execution date and the credit transfers (end-to-end id, instructed amount, creditor account).

import {
  type IsoAmount,
  type Issues,
  optBic,
  optDate,
  optDateTime,
  optIban,
  optText,
  reqAmount,
  reqIban,
  reqText,
} from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { agentBic, checkCount, type ExtractContext, must, readGroupHeader } from './common.js';
import type { AppHeader } from './head001.js';

export const PAIN001_ROOT = 'CstmrCdtTrfInitn';

export interface InitiationTransfer {
  readonly endToEndId: string;
  readonly instructionId: string | undefined;
  readonly amount: IsoAmount;
  readonly creditorName: string | undefined;
  readonly creditorIban: string | undefined;
  readonly creditorBic: string | undefined;
}

export interface PaymentInformation {
  readonly paymentInformationId: string;
  /** ReqdExctnDt/Dt, or the date part of ReqdExctnDt/DtTm. */
  readonly requestedExecutionDate: string;
  readonly debtorName: string | undefined;
  readonly debtorIban: string;
  readonly debtorBic: string | undefined;
  readonly transfers: readonly InitiationTransfer[];
}

export interface Pain001Message {
  readonly kind: 'pain001';
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly payments: readonly PaymentInformation[];
}

/** A DateAndDateTime2Choice (`Dt` or `DtTm`) read as a date; a missing choice is reported at `Dt`. */
export function choiceDate(is: Issues, c: XmlCursor): string | undefined {
  const dt = c.child('Dt');
  if (dt.exists) return optDate(is, dt) ?? (dt.text() === undefined ? is.missing(dt.path) : undefined);
  const dtTm = c.child('DtTm');
  if (dtTm.exists)
    return (
      optDateTime(is, dtTm)?.slice(0, 10) ?? (dtTm.text() === undefined ? is.missing(dtTm.path) : undefined)
    );
  return is.missing(dt.path);
}

function readTransfer(t: XmlCursor, is: Issues) {
  const amountAt = t.at('Amt', 'InstdAmt');
  return {
    endToEndId: reqText(is, t.at('PmtId', 'EndToEndId')),
    instructionId: optText(is, t.at('PmtId', 'InstrId')),
    amount: reqAmount(is, amountAt, amountAt.attr('Ccy')),
    creditorName: optText(is, t.at('Cdtr', 'Nm'), 140),
    creditorIban: optIban(is, t.at('CdtrAcct', 'Id', 'IBAN')),
    creditorBic: optBic(is, agentBic(t, 'CdtrAgt')),
  };
}

function readPayment(p: XmlCursor, is: Issues) {
  const transfers = p.all('CdtTrfTxInf');
  if (transfers.length === 0) is.missing(p.child('CdtTrfTxInf').path);
  const nb = p.child('NbOfTxs');
  if (nb.exists) checkCount(is, nb, transfers.length, false);
  return {
    paymentInformationId: reqText(is, p.child('PmtInfId')),
    requestedExecutionDate: choiceDate(is, p.child('ReqdExctnDt')),
    debtorName: optText(is, p.at('Dbtr', 'Nm'), 140),
    debtorIban: reqIban(is, p.at('DbtrAcct', 'Id', 'IBAN')),
    debtorBic: optBic(is, agentBic(p, 'DbtrAgt')),
    transfers: transfers.map((t) => readTransfer(t, is)),
  };
}

export function extractPain001(ctx: ExtractContext): Pain001Message | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const payments = root.all('PmtInf');
  if (payments.length === 0) is.missing(root.child('PmtInf').path);
  const total = payments.reduce((n, p) => n + p.count('CdtTrfTxInf'), 0);
  checkCount(is, root.at('GrpHdr', 'NbOfTxs'), total, true);
  const read = payments.map((p) => readPayment(p, is));
  if (!is.ok) return undefined;
  return {
    kind: 'pain001',
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    payments: read.map((p) => ({
      ...p,
      paymentInformationId: must(p.paymentInformationId),
      requestedExecutionDate: must(p.requestedExecutionDate),
      debtorIban: must(p.debtorIban),
      transfers: p.transfers.map((t) => ({ ...t, endToEndId: must(t.endToEndId), amount: must(t.amount) })),
    })),
  };
}
