// pacs.009 FinancialInstitutionCreditTransfer (read per pacs.009.001.09; .08–.12 use the same paths).
// Required content: business message id and message definition id (AppHdr BizMsgIdr/MsgDefIdr when present,
// else GrpHdr/MsgId and the Document namespace), creation time, amount and currency, settlement date,
// instructing and instructed agent BIC (transaction level, else group level), debtor and creditor IBAN.
// `Purp`, when present, must be the ISO code SECU (rule purpose_not_secu).

import {
  type IsoAmount,
  type Issues,
  optBic,
  optDate,
  optText,
  optUuid,
  reqAmount,
  reqBic,
  reqText,
} from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import { readAccount } from './account.js';
import { agentBic, checkCount, type ExtractContext, must, readGroupHeader } from './common.js';
import type { AppHeader } from './head001.js';
import { type GroupDate, positive, settlementDate } from './pacs008.js';
import { type LedgerPins, mergePins, type PinPaths, type PinSet, readPins } from './pins.js';

export const PACS009_ROOT = 'FICdtTrf';
/** The only purpose accepted on pacs.009 (securities-related cash funding). */
export const PACS009_PURPOSE = 'SECU';

export interface Pacs009Paths {
  readonly amount: string;
  readonly currency: string;
  readonly settlementDate: string;
  readonly instructingAgentBic: string;
  readonly instructedAgentBic: string;
  readonly debtorIban: string;
  readonly creditorIban: string;
  readonly debtorOtherId: string;
  readonly creditorOtherId: string;
  readonly debtorBic: string;
  readonly creditorBic: string;
  readonly pins: PinPaths;
}

export interface Pacs009Transaction {
  readonly instructionId: string | undefined;
  readonly endToEndId: string;
  readonly transactionId: string | undefined;
  readonly uetr: string | undefined;
  readonly amount: IsoAmount;
  readonly settlementDate: string;
  readonly instructingAgentBic: string;
  readonly instructedAgentBic: string;
  /** Dbtr/FinInstnId/BICFI and Cdtr/FinInstnId/BICFI: the parties of pacs.009 are institutions. */
  readonly debtorBic: string | undefined;
  readonly creditorBic: string | undefined;
  /**
   * Absent when the account is given by `Othr/Id` only, or not at all: FI-to-FI transfers often
   * name only the institutions' BICs (resolve.ts then may use the BIC crosswalk).
   */
  readonly debtorIban: string | undefined;
  readonly creditorIban: string | undefined;
  readonly debtorOtherId: string | undefined;
  readonly creditorOtherId: string | undefined;
  readonly purpose: string | undefined;
  readonly pins: LedgerPins;
  readonly paths: Pacs009Paths;
}

export interface Pacs009Message {
  readonly kind: 'pacs009';
  readonly businessMessageId: string;
  readonly messageDefinitionId: string;
  readonly messageId: string;
  readonly creationTime: string;
  readonly appHeader: AppHeader | undefined;
  readonly transactions: readonly Pacs009Transaction[];
}

/** Purp/Cd must be SECU; a proprietary purpose (Purp/Prtry) is refused as well. */
export function checkPurpose(is: Issues, purp: XmlCursor): string | undefined {
  if (!purp.exists) return undefined;
  const code = purp.child('Cd');
  if (code.text() === PACS009_PURPOSE) return PACS009_PURPOSE;
  const at = code.exists ? code : purp.child('Prtry').exists ? purp.child('Prtry') : code;
  is.add('purpose_not_secu', at.path, `only the purpose code ${PACS009_PURPOSE} is accepted on pacs.009`);
  return undefined;
}

interface GroupAgents {
  readonly instructing: XmlCursor;
  readonly instructed: XmlCursor;
}

/** The transaction's agent when it names one, else the group header's. */
function agent(tx: XmlCursor, name: string, group: XmlCursor): XmlCursor {
  return tx.child(name).exists || !group.exists ? agentBic(tx, name) : group;
}

function readTransaction(
  tx: XmlCursor,
  is: Issues,
  group: GroupDate,
  agents: GroupAgents,
  documentPins: PinSet,
) {
  const pmtId = tx.child('PmtId');
  const endToEndId = reqText(is, pmtId.child('EndToEndId'));
  const amountAt = tx.child('IntrBkSttlmAmt');
  const amount = positive(is, reqAmount(is, amountAt, amountAt.attr('Ccy')), amountAt.path);
  const date = settlementDate(is, tx, group);
  const at = {
    instructingAgentBic: agent(tx, 'InstgAgt', agents.instructing),
    instructedAgentBic: agent(tx, 'InstdAgt', agents.instructed),
    debtorBic: agentBic(tx, 'Dbtr'),
    creditorBic: agentBic(tx, 'Cdtr'),
  };
  const required = {
    instructingAgentBic: reqBic(is, at.instructingAgentBic),
    instructedAgentBic: reqBic(is, at.instructedAgentBic),
  };
  const debtor = readAccount(is, tx, 'DbtrAcct');
  const creditor = readAccount(is, tx, 'CdtrAcct');
  const optional = {
    instructionId: optText(is, pmtId.child('InstrId')),
    transactionId: optText(is, pmtId.child('TxId')),
    uetr: optUuid(is, pmtId.child('UETR')),
    debtorBic: optBic(is, at.debtorBic),
    creditorBic: optBic(is, at.creditorBic),
    purpose: checkPurpose(is, tx.child('Purp')),
  };
  const pinSet = mergePins(documentPins, readPins(tx, is));
  if (!is.ok) return undefined;
  const paths = Object.fromEntries(Object.entries(at).map(([k, c]) => [k, c.path])) as Record<
    keyof typeof at,
    string
  >;
  return {
    ...optional,
    endToEndId: must(endToEndId),
    amount: must(amount),
    settlementDate: must(date.value),
    instructingAgentBic: must(required.instructingAgentBic),
    instructedAgentBic: must(required.instructedAgentBic),
    debtorIban: debtor.iban,
    creditorIban: creditor.iban,
    debtorOtherId: debtor.otherId,
    creditorOtherId: creditor.otherId,
    pins: pinSet.pins,
    paths: {
      ...paths,
      debtorIban: debtor.ibanPath,
      creditorIban: creditor.ibanPath,
      debtorOtherId: debtor.otherIdPath,
      creditorOtherId: creditor.otherIdPath,
      amount: amountAt.path,
      currency: amountAt.attr('Ccy').path,
      settlementDate: date.path,
      pins: pinSet.paths,
    },
  } satisfies Pacs009Transaction;
}

export function extractPacs009(ctx: ExtractContext): Pacs009Message | undefined {
  const { root, issues: is } = ctx;
  const header = readGroupHeader(root, is);
  const hdr = root.child('GrpHdr');
  checkCount(is, hdr.child('NbOfTxs'), root.count('CdtTrfTxInf'), true);
  const groupDateAt = hdr.child('IntrBkSttlmDt');
  const group = { cursor: groupDateAt, value: optDate(is, groupDateAt) };
  const agents = { instructing: agentBic(hdr, 'InstgAgt'), instructed: agentBic(hdr, 'InstdAgt') };
  const documentPins = readPins(root, is);
  const txs = root.all('CdtTrfTxInf');
  if (txs.length === 0) is.missing(root.child('CdtTrfTxInf').path);
  const transactions = txs.map((tx) => readTransaction(tx, is, group, agents, documentPins));
  if (!is.ok) return undefined;
  const messageId = must(header.messageId);
  return {
    kind: 'pacs009',
    businessMessageId: ctx.appHeader?.businessMessageId ?? messageId,
    messageDefinitionId: ctx.appHeader?.messageDefinitionId ?? ctx.messageDefinitionId,
    messageId,
    creationTime: must(header.creationTime),
    appHeader: ctx.appHeader,
    transactions: transactions.map(must),
  };
}
