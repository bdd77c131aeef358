// XML fragments several builders share (ISO 20022 components: agents, amounts, reasons,
// original group references).

import type { Issues } from '../validate/fields.js';
import { text, uuid } from './inputs.js';
import { el, opt, type XmlElement } from './xml-writer.js';

/** BranchAndFinancialInstitutionIdentification6 by BIC: `<name><FinInstnId><BICFI>…`. */
export function agent(name: string, bic: string | undefined): XmlElement | undefined {
  return bic === undefined ? undefined : el(name, [el('FinInstnId', [el('BICFI', bic)])]);
}

/** An amount with its currency attribute, from build/inputs.ts amount(). */
export function amountElement(
  name: string,
  value: readonly [string, string] | undefined,
): XmlElement | undefined {
  return value === undefined ? undefined : el(name, value[0], [['Ccy', value[1]]]);
}

export interface ReasonParts {
  readonly reasonCode: string | undefined;
  readonly proprietary: string | undefined;
  readonly info: readonly string[];
}

/** StsRsnInf / RtrRsnInf / CxlStsRsnInf: Rsn (Cd or Prtry) and AddtlInf lines. */
export function reasonElement(name: string, r: ReasonParts): XmlElement | undefined {
  if (r.reasonCode === undefined && r.proprietary === undefined && r.info.length === 0) return undefined;
  let rsn: XmlElement | undefined;
  if (r.reasonCode !== undefined) rsn = el('Rsn', [el('Cd', r.reasonCode)]);
  else if (r.proprietary !== undefined) rsn = el('Rsn', [el('Prtry', r.proprietary)]);
  return el(name, [rsn, ...r.info.map((line) => el('AddtlInf', line))]);
}

export interface OriginalParts {
  readonly messageId: string | undefined;
  readonly messageDefinitionId: string | undefined;
  readonly creationTime: string | undefined;
}

/** OrgnlMsgId, OrgnlMsgNmId, OrgnlCreDtTm in that order (common to every original group type). */
export function originalFields(o: OriginalParts): XmlElement[] {
  return [el('OrgnlMsgId', o.messageId ?? ''), el('OrgnlMsgNmId', o.messageDefinitionId ?? '')].concat(
    o.creationTime === undefined ? [] : [el('OrgnlCreDtTm', o.creationTime)],
  );
}

/** The original-transaction reference fields every per-transaction report input carries. */
export interface OriginalTransactionInput {
  readonly originalInstructionId?: string | undefined;
  readonly originalEndToEndId?: string | undefined;
  readonly originalTransactionId?: string | undefined;
  readonly originalUetr?: string | undefined;
}

/** Original transaction references in schema order (without OrgnlClrSysRef), checked under `path`. */
export function originalRefs(
  is: Issues,
  t: OriginalTransactionInput,
  path: string,
): Array<XmlElement | undefined> {
  return [
    opt('OrgnlInstrId', text(is, t.originalInstructionId, `${path}.originalInstructionId`, false)),
    opt('OrgnlEndToEndId', text(is, t.originalEndToEndId, `${path}.originalEndToEndId`, false)),
    opt('OrgnlTxId', text(is, t.originalTransactionId, `${path}.originalTransactionId`, false)),
    opt('OrgnlUETR', uuid(is, t.originalUetr, `${path}.originalUetr`)),
  ];
}
