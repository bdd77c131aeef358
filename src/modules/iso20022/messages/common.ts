// Building blocks shared by the message families: the extraction context, group headers, original
// references (pacs.002/004/007/028, camt.029/056) and status or reason information.

import { assert } from '../../../util/assert.js';
import {
  type Issues,
  optCode,
  optDateTime,
  optText,
  optUuid,
  reqDateTime,
  reqText,
} from '../validate/fields.js';
import type { XmlCursor } from '../xml/cursor.js';
import type { AppHeader } from './head001.js';

/** What an extractor gets: the message's root element (e.g. `FIToFICstmrCdtTrf`) and where to report. */
export interface ExtractContext {
  readonly root: XmlCursor;
  readonly issues: Issues;
  /** From the Document namespace, e.g. `pacs.008.001.09`. */
  readonly messageDefinitionId: string;
  readonly appHeader: AppHeader | undefined;
}

/** A value the extractor has already required: absent only if a validation error was recorded. */
export function must<T>(value: T | undefined): T {
  assert(value !== undefined, 'required value missing after validation passed');
  return value;
}

export interface GroupHeader {
  readonly messageId: string | undefined;
  readonly creationTime: string | undefined;
}

/** GrpHdr/MsgId and GrpHdr/CreDtTm, required in every pacs, pain and camt message. */
export function readGroupHeader(root: XmlCursor, is: Issues): GroupHeader {
  const hdr = root.child('GrpHdr');
  return { messageId: reqText(is, hdr.child('MsgId')), creationTime: reqDateTime(is, hdr.child('CreDtTm')) };
}

/** Checks a declared transaction count (NbOfTxs) against the elements actually present. */
export function checkCount(is: Issues, declared: XmlCursor, actual: number, required: boolean): void {
  const text = declared.text();
  if (text === undefined) {
    if (required) is.missing(declared.path);
    return;
  }
  if (!/^\d{1,15}$/.test(text)) is.add('count_mismatch', declared.path, 'a count is 1 to 15 digits');
  else if (Number(text) !== actual) {
    is.add('count_mismatch', declared.path, `declares ${text} transactions, the message holds ${actual}`);
  }
}

export interface OriginalGroup {
  readonly messageId: string | undefined;
  /** OrgnlMsgNmId: usually a message definition id (`pacs.008.001.09`), Max35Text by definition. */
  readonly messageNameId: string | undefined;
  readonly creationTime: string | undefined;
}

/** OrgnlMsgId, OrgnlMsgNmId (both required when the group element is present), OrgnlCreDtTm. */
export function readOriginalGroup(c: XmlCursor, is: Issues): OriginalGroup | undefined {
  if (!c.exists) return undefined;
  return {
    messageId: reqText(is, c.child('OrgnlMsgId')),
    messageNameId: reqText(is, c.child('OrgnlMsgNmId')),
    creationTime: optDateTime(is, c.child('OrgnlCreDtTm')),
  };
}

export interface OriginalTransactionRefs {
  readonly instructionId: string | undefined;
  readonly endToEndId: string | undefined;
  readonly transactionId: string | undefined;
  readonly uetr: string | undefined;
}

export function readOriginalRefs(c: XmlCursor, is: Issues): OriginalTransactionRefs {
  return {
    instructionId: optText(is, c.child('OrgnlInstrId')),
    endToEndId: optText(is, c.child('OrgnlEndToEndId')),
    transactionId: optText(is, c.child('OrgnlTxId')),
    uetr: optUuid(is, c.child('OrgnlUETR')),
  };
}

export interface Reason {
  /** Rsn/Cd: an ISO external code (AC01, AM04, …). */
  readonly code: string | undefined;
  /** Rsn/Prtry: a proprietary reason. */
  readonly proprietary: string | undefined;
  readonly additionalInfo: readonly string[];
}

/** Every StsRsnInf / RtrRsnInf / CxlRsnInf / RvslRsnInf element under `parent`. */
export function readReasons(parent: XmlCursor, name: string, is: Issues): Reason[] {
  return parent.all(name).map((r) => ({
    code: optCode(is, r.at('Rsn', 'Cd')),
    proprietary: optText(is, r.at('Rsn', 'Prtry')),
    additionalInfo: r
      .all('AddtlInf')
      .map((a) => optText(is, a, 105))
      .filter((t): t is string => t !== undefined),
  }));
}

/** A BIC-identified agent (BranchAndFinancialInstitutionIdentification6): `<name>/FinInstnId/BICFI`. */
export function agentBic(parent: XmlCursor, name: string): XmlCursor {
  return parent.at(name, 'FinInstnId', 'BICFI');
}
