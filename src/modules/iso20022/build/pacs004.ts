// Builds pacs.004.001.10 PaymentReturn: GrpHdr (NbOfTxs counted, settlement method), OrgnlGrpInf
// (the returned message) and one TxInf per returned transaction with the returned amount and the
// return reason (RtrRsnInf/Rsn/Cd, e.g. AC04 closed account, AM05 duplication). Deterministic:
// the creation time is an input.

import { Issues } from '../validate/fields.js';
import {
  agent,
  amountElement,
  type OriginalTransactionInput,
  originalFields,
  originalRefs,
  reasonElement,
} from './fragments.js';
import {
  type AmountInput,
  amount,
  type BuildResult,
  bic,
  code,
  date,
  dateTime,
  type OriginalMessageInput,
  original,
  reason,
  text,
} from './inputs.js';
import { el, isoDocument, opt, renderXml, type XmlElement } from './xml-writer.js';

export const PACS004_DEFINITION = 'pacs.004.001.10';
const SETTLEMENT_METHODS: ReadonlySet<string> = new Set(['INDA', 'INGA', 'COVE', 'CLRG']);
const CHARGE_BEARERS: ReadonlySet<string> = new Set(['DEBT', 'CRED', 'SHAR', 'SLEV']);

export interface Pacs004TransactionInput extends OriginalTransactionInput {
  readonly returnId?: string | undefined;
  readonly originalAmount?: AmountInput | undefined;
  readonly originalSettlementDate?: string | undefined;
  readonly returnedAmount: AmountInput;
  readonly settlementDate?: string | undefined;
  readonly chargeBearer?: 'DEBT' | 'CRED' | 'SHAR' | 'SLEV' | undefined;
  /** The return reason: an ISO code (reasonCode) or a proprietary one; one of them is required. */
  readonly reasonCode?: string | undefined;
  readonly proprietaryReason?: string | undefined;
  readonly additionalInfo?: readonly string[] | undefined;
}

export interface Pacs004Input {
  readonly messageId: string;
  readonly creationTime: string;
  /** SttlmInf/SttlmMtd; CLRG (through a clearing system) by default. */
  readonly settlementMethod?: 'INDA' | 'INGA' | 'COVE' | 'CLRG' | undefined;
  readonly instructingAgentBic?: string | undefined;
  readonly instructedAgentBic?: string | undefined;
  readonly original: OriginalMessageInput;
  readonly transactions: readonly Pacs004TransactionInput[];
}

function transaction(is: Issues, t: Pacs004TransactionInput, path: string): XmlElement {
  const r = reason(is, t, path, true);
  return el('TxInf', [
    opt('RtrId', text(is, t.returnId, `${path}.returnId`, false)),
    ...originalRefs(is, t, path),
    amountElement('OrgnlIntrBkSttlmAmt', amount(is, t.originalAmount, `${path}.originalAmount`, false)),
    opt('OrgnlIntrBkSttlmDt', date(is, t.originalSettlementDate, `${path}.originalSettlementDate`, false)),
    amountElement('RtrdIntrBkSttlmAmt', amount(is, t.returnedAmount, `${path}.returnedAmount`)),
    opt('IntrBkSttlmDt', date(is, t.settlementDate, `${path}.settlementDate`, false)),
    opt('ChrgBr', code(is, t.chargeBearer, `${path}.chargeBearer`, CHARGE_BEARERS, false)),
    reasonElement('RtrRsnInf', r),
  ]);
}

export function buildPacs004(input: Pacs004Input): BuildResult {
  const is = new Issues();
  if (input.transactions.length === 0) is.missing('transactions');
  const o = original(is, input.original, 'original');
  const method = code(is, input.settlementMethod ?? 'CLRG', 'settlementMethod', SETTLEMENT_METHODS);
  const header = el('GrpHdr', [
    el('MsgId', text(is, input.messageId, 'messageId') ?? ''),
    el('CreDtTm', dateTime(is, input.creationTime, 'creationTime') ?? ''),
    el('NbOfTxs', String(input.transactions.length)),
    el('SttlmInf', [el('SttlmMtd', method ?? '')]),
    agent('InstgAgt', bic(is, input.instructingAgentBic, 'instructingAgentBic', false)),
    agent('InstdAgt', bic(is, input.instructedAgentBic, 'instructedAgentBic', false)),
  ]);
  const group = el('OrgnlGrpInf', o === undefined ? [] : originalFields(o));
  const txs = input.transactions.map((t, i) => transaction(is, t, `transactions[${i}]`));
  if (!is.ok) return { ok: false, errors: is.errors };
  return { ok: true, xml: renderXml(isoDocument(PACS004_DEFINITION, el('PmtRtr', [header, group, ...txs]))) };
}
