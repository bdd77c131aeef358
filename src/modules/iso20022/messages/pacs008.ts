// pacs.008 FIToFICustomerCreditTransfer (read per pacs.008.001.09; .08–.13 use the same paths).
// Required content: message id,
// interbank settlement amount and currency, settlement date (transaction level, else group
// level), debtor and creditor IBAN, debtor and creditor agent BIC. Mapping table: README. An account
// given by `Othr/Id` instead of an IBAN is read too (account.ts); resolve.ts refuses it unless the
// operator allowed accounts without an IBAN.

import {
  type IsoAmount,
  type Issues,
  optDate,
  optText,
  optUuid,
  reqAmount,
  reqBic,
  reqDate,
  reqText,
} from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { readAccount } from './account.js';
import { agentBic, checkCount, type ExtractContext, must, readGroupHeader } from './common.js';
import type { AppHeader } from './head001.js';
import { type LedgerPins, mergePins, type PinPaths, type PinSet, readPins } from './pins.js';

export const PACS008_ROOT = 'FIToFICstmrCdtTrf';

export interface TransferPaths {
  readonly amount: string;
  readonly currency: string;
  readonly settlementDate: string;
  readonly debtorIban: string;
  readonly creditorIban: string;
  readonly debtorOtherId: string;
  readonly creditorOtherId: string;
  readonly debtorBic: string;
  readonly creditorBic: string;
  readonly pins: PinPaths;
}

export interface Pacs008Transaction {
  readonly instructionId: string | undefined;
  readonly endToEndId: string;
  readonly transactionId: string | undefined;
  readonly uetr: string | undefined;
  readonly amount: IsoAmount;
  readonly settlementDate: string;
  readonly debtorName: string | undefined;
  /** Absent when the account is given by `Othr/Id` only (then `debtorOtherId`). */
  readonly debtorIban: string | undefined;
  readonly debtorOtherId: string | undefined;
  readonly debtorBic: string;
  readonly creditorName: string | undefined;
  readonly creditorIban: string | undefined;
  readonly creditorOtherId: string | undefined;
  readonly creditorBic: string;
  /** Document-level pins merged with this transaction's own (transaction wins per field). */
  readonly pins: LedgerPins;
  /** Where each field was read, for error reporting after extraction (e.g. by resolve()). */
  readonly paths: TransferPaths;
}

export interface Pacs008Message {
  readonly kind: 'pacs008';
  readonly messageDefinitionId: string;
  readonly messageId: string;
  /** GrpHdr/CreDtTm (always present in XML; optional in the flat form). */
  readonly creationTime: string | undefined;
  readonly appHeader: AppHeader | undefined;
  readonly transactions: readonly Pacs008Transaction[];
}

/** Rejects a zero amount: a transfer moves value (the schema's minInclusive 0 allows it). */
export function positive(is: Issues, amount: IsoAmount | undefined, path: string): IsoAmount | undefined {
  if (amount !== undefined && amount.mantissa === 0n) {
    is.add('amount_not_positive', path, 'the amount must be greater than zero');
    return undefined;
  }
  return amount;
}

export interface GroupDate {
  readonly cursor: XmlCursor;
  readonly value: string | undefined;
}

/** Transaction-level IntrBkSttlmDt, else the group's; a missing date is reported at transaction level. */
export function settlementDate(
  is: Issues,
  tx: XmlCursor,
  group: GroupDate,
): { value: string | undefined; path: string } {
  const own = tx.child('IntrBkSttlmDt');
  if (own.exists) return { value: reqDate(is, own), path: own.path };
  if (group.cursor.exists) return { value: group.value, path: group.cursor.path };
  return { value: is.missing(own.path), path: own.path };
}

function readTransaction(
  tx: XmlCursor,
  is: Issues,
  group: GroupDate,
  documentPins: PinSet,
): Pacs008Transaction | undefined {
  const pmtId = tx.child('PmtId');
  const endToEndId = reqText(is, pmtId.child('EndToEndId'));
  const amountAt = tx.child('IntrBkSttlmAmt');
  const amount = positive(is, reqAmount(is, amountAt, amountAt.attr('Ccy')), amountAt.path);
  const date = settlementDate(is, tx, group);
  const at = { debtorBic: agentBic(tx, 'DbtrAgt'), creditorBic: agentBic(tx, 'CdtrAgt') };
  const debtor = readAccount(is, tx, 'DbtrAcct');
  const creditor = readAccount(is, tx, 'CdtrAcct');
  const debtorBic = reqBic(is, at.debtorBic);
  const creditorBic = reqBic(is, at.creditorBic);
  const pinSet = mergePins(documentPins, readPins(tx, is));
  const fields = {
    instructionId: optText(is, pmtId.child('InstrId')),
    transactionId: optText(is, pmtId.child('TxId')),
    uetr: optUuid(is, pmtId.child('UETR')),
    debtorName: optText(is, tx.at('Dbtr', 'Nm'), 140),
    creditorName: optText(is, tx.at('Cdtr', 'Nm'), 140),
  };
  if (!is.ok) return undefined;
  return {
    ...fields,
    endToEndId: must(endToEndId),
    amount: must(amount),
    settlementDate: must(date.value),
    debtorIban: debtor.iban,
    debtorOtherId: debtor.otherId,
    debtorBic: must(debtorBic),
    creditorIban: creditor.iban,
    creditorOtherId: creditor.otherId,
    creditorBic: must(creditorBic),
    pins: pinSet.pins,
    paths: {
      amount: amountAt.path,
      currency: amountAt.attr('Ccy').path,
      settlementDate: date.path,
      debtorIban: debtor.ibanPath,
      creditorIban: creditor.ibanPath,
      debtorOtherId: debtor.otherIdPath,
      creditorOtherId: creditor.otherIdPath,
      debtorBic: at.debtorBic.path,
      creditorBic: at.creditorBic.path,
      pins: pinSet.paths,
    },
  };
}

export function extractPacs008(ctx: ExtractContext): Pacs008Message | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const hdr = root.child('GrpHdr');
  checkCount(is, hdr.child('NbOfTxs'), root.count('CdtTrfTxInf'), true);
  const groupDateAt = hdr.child('IntrBkSttlmDt');
  const group = { cursor: groupDateAt, value: optDate(is, groupDateAt) };
  const documentPins = readPins(root, is);
  const txs = root.all('CdtTrfTxInf');
  if (txs.length === 0) is.missing(root.child('CdtTrfTxInf').path);
  const transactions = txs.map((tx) => readTransaction(tx, is, group, documentPins));
  if (!is.ok) return undefined;
  return {
    kind: 'pacs008',
    messageDefinitionId: ctx.messageDefinitionId,
    messageId: must(header.messageId),
    creationTime: header.creationTime,
    appHeader: ctx.appHeader,
    transactions: transactions.map(must),
  };
}
