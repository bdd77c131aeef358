// camt.052 BankToCustomerAccountReport, camt.053 BankToCustomerStatement and camt.054
// BankToCustomerDebitCreditNotification (read per version .001.08; internal helpers, no routes).
// One family: a group header, then reports (Rpt / Stmt / Ntfctn) each with an account, balances
// (camt.052/053) and entries. Dates are DateAndDateTime2Choice (Dt or DtTm).

import {
  type IsoAmount,
  type Issues,
  optCode,
  optIban,
  optText,
  reqAmount,
  reqCode,
  reqText,
} from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { type ExtractContext, must, readGroupHeader } from './common.js';
import type { AppHeader } from './head001.js';
import { choiceDate } from './pain001.js';

export const CAMT052_ROOT = 'BkToCstmrAcctRpt';
export const CAMT053_ROOT = 'BkToCstmrStmt';
export const CAMT054_ROOT = 'BkToCstmrDbtCdtNtfctn';
const CREDIT_DEBIT: ReadonlySet<string> = new Set(['CRDT', 'DBIT']);

export interface Balance {
  /** Tp/CdOrPrtry/Cd: OPBD, CLBD, ITBD, CLAV, … (or the proprietary type). */
  readonly type: string | undefined;
  readonly amount: IsoAmount;
  readonly creditDebit: string;
  readonly date: string;
}

export interface Entry {
  readonly reference: string | undefined;
  readonly amount: IsoAmount;
  readonly creditDebit: string;
  /** Sts/Cd: BOOK, PDNG, INFO, FUTR. */
  readonly status: string | undefined;
  readonly bookingDate: string | undefined;
  readonly valueDate: string | undefined;
  readonly accountServicerReference: string | undefined;
}

export interface AccountReport {
  readonly id: string;
  readonly accountIban: string | undefined;
  /** Acct/Id/Othr/Id, for accounts without an IBAN. */
  readonly accountOther: string | undefined;
  readonly balances: readonly Balance[];
  readonly entries: readonly Entry[];
}

export interface CamtReportMessage<K extends 'camt052' | 'camt053' | 'camt054'> {
  readonly kind: K;
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly reports: readonly AccountReport[];
}

function optionalDate(is: Issues, c: XmlCursor): string | undefined {
  return c.exists ? choiceDate(is, c) : undefined;
}

function readBalance(b: XmlCursor, is: Issues) {
  const amountAt = b.child('Amt');
  const type = b.at('Tp', 'CdOrPrtry');
  return {
    type: optCode(is, type.child('Cd')) ?? optText(is, type.child('Prtry')),
    amount: reqAmount(is, amountAt, amountAt.attr('Ccy')),
    creditDebit: reqCode(is, b.child('CdtDbtInd'), CREDIT_DEBIT),
    date: choiceDate(is, b.child('Dt')),
  };
}

function readEntry(e: XmlCursor, is: Issues) {
  const amountAt = e.child('Amt');
  return {
    reference: optText(is, e.child('NtryRef')),
    amount: reqAmount(is, amountAt, amountAt.attr('Ccy')),
    creditDebit: reqCode(is, e.child('CdtDbtInd'), CREDIT_DEBIT),
    status: optCode(is, e.at('Sts', 'Cd')) ?? optText(is, e.at('Sts', 'Prtry')),
    bookingDate: optionalDate(is, e.child('BookgDt')),
    valueDate: optionalDate(is, e.child('ValDt')),
    accountServicerReference: optText(is, e.child('AcctSvcrRef')),
  };
}

function readReport(r: XmlCursor, is: Issues, balancesRequired: boolean): AccountReport | undefined {
  const id = reqText(is, r.child('Id'));
  const account = r.at('Acct', 'Id');
  const accountIban = optIban(is, account.child('IBAN'));
  const accountOther = optText(is, account.at('Othr', 'Id'), 34);
  if (accountIban === undefined && accountOther === undefined && !account.child('IBAN').exists) {
    is.missing(account.child('IBAN').path);
  }
  if (balancesRequired && r.count('Bal') === 0) is.missing(r.child('Bal').path);
  const balances = r.all('Bal').map((b) => readBalance(b, is));
  const entries = r.all('Ntry').map((e) => readEntry(e, is));
  if (!is.ok) return undefined;
  return {
    id: must(id),
    accountIban,
    accountOther,
    balances: balances.map((b) => ({
      ...b,
      amount: must(b.amount),
      creditDebit: must(b.creditDebit),
      date: must(b.date),
    })),
    entries: entries.map((e) => ({ ...e, amount: must(e.amount), creditDebit: must(e.creditDebit) })),
  };
}

function extract<K extends 'camt052' | 'camt053' | 'camt054'>(
  ctx: ExtractContext,
  kind: K,
  reportElement: string,
): CamtReportMessage<K> | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const reports = root.all(reportElement);
  if (reports.length === 0) is.missing(root.child(reportElement).path);
  // A statement (camt.053) must carry balances; reports and notifications may omit them.
  const read = reports.map((r) => readReport(r, is, kind === 'camt053'));
  if (!is.ok) return undefined;
  return {
    kind,
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    reports: read.map(must),
  };
}

export const extractCamt052 = (ctx: ExtractContext) => extract(ctx, 'camt052', 'Rpt');
export const extractCamt053 = (ctx: ExtractContext) => extract(ctx, 'camt053', 'Stmt');
export const extractCamt054 = (ctx: ExtractContext) => extract(ctx, 'camt054', 'Ntfctn');
