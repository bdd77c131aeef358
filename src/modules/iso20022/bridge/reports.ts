// XML out (README "Reports"): pacs.002, pacs.004, camt.029, sese.024 and sese.025 generated from a
// record by the library's builders (src/modules/iso20022/build/). Deterministic: the creation time is the
// record's last update and generated ids are hashes of (record, status), so the same record always
// gives the same bytes. A report that does not apply to the record (a pacs.004 for a message that was
// never returned, a sese.025 before settlement) is `iso_report_unavailable`.

import { hash } from '../../../crypto/hash.js';
import { formatNumeric, type Numeric } from '../../../model/numeric.js';
import { toHex } from '../../../util/hex.js';
import { buildCamt029 } from '../build/camt029.js';
import type { BuildResult } from '../build/inputs.js';
import { buildPacs002, type PaymentStatus } from '../build/pacs002.js';
import { buildPacs004 } from '../build/pacs004.js';
import { buildSese024 } from '../build/sese024.js';
import { buildSese025 } from '../build/sese025.js';
import { assignmentOf } from './cancellations.js';
import { BridgeError } from './errors.js';
import { type BridgeRecord, infoOf, type RecordTransaction } from './record.js';
import type { ReportKind } from './routed-kinds.js';
import { securitiesReason } from './status.js';

type Lookup = (id: string) => BridgeRecord | undefined;

function unavailable(r: BridgeRecord, report: ReportKind, reason: string): BridgeError {
  return new BridgeError('iso_report_unavailable', `no ${report} for ${r.messageId}: ${reason}`, {
    message_id: r.messageId,
    kind: r.kind,
    report,
    reason,
  });
}

function built(b: BuildResult): string {
  if (!b.ok) throw new Error(`report builder refused a stored record: ${JSON.stringify(b.errors)}`);
  return b.xml;
}

const isoTime = (ms: number) => new Date(ms).toISOString();
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A Max35Text id derived from the record and its status (stable across calls). */
const derivedId = (prefix: string, r: BridgeRecord) =>
  `${prefix}-${toHex(hash(new TextEncoder().encode(`${r.messageId}|${r.pacs002Code}|${r.resolution ?? ''}|${r.updatedAtMs}`))).slice(0, 26)}`;

function amountText(n: Numeric | undefined, currency: string | undefined) {
  return n === undefined || currency === undefined ? undefined : { currency, value: formatNumeric(n) };
}

function refs(t: RecordTransaction) {
  return {
    originalInstructionId: t.instructionId,
    originalEndToEndId: t.endToEndId,
    originalTransactionId: t.transactionId,
    originalUetr: t.uetr,
  };
}

function reasonOf(r: BridgeRecord) {
  const info = r.reasonText === undefined ? [] : [r.reasonText.slice(0, 105)];
  return { reasonCode: r.reasonCode, proprietaryReason: r.reasonProprietary, additionalInfo: info };
}

function pacs002(r: BridgeRecord): string {
  if (!['pacs008', 'pacs009', 'pacs004'].includes(r.kind))
    throw unavailable(r, 'pacs002', `a ${r.kind} has no payment status`);
  const status = r.pacs002Code as PaymentStatus;
  const reason = status === 'RJCT' ? reasonOf(r) : {};
  return built(
    buildPacs002({
      messageId: derivedId('P002', r),
      creationTime: isoTime(r.updatedAtMs),
      original: {
        messageId: r.messageId,
        messageDefinitionId: r.messageDefinitionId,
        creationTime: r.creationTime,
      },
      groupStatus: status,
      transactions: r.transactions.map((t) => ({ ...refs(t), status, ...reason })),
    }),
  );
}

function lastLinked(r: BridgeRecord, kind: string, get: Lookup): BridgeRecord | undefined {
  const link = [...r.links].reverse().find((l) => l.kind === kind);
  return link === undefined ? undefined : get(link.messageId);
}

function pacs004(r: BridgeRecord, get: Lookup): string {
  const ret = r.kind === 'pacs004' ? r : lastLinked(r, 'pacs004', get);
  if (ret === undefined) throw unavailable(r, 'pacs004', 'the message was not returned');
  const original = get(ret.originalMessageId ?? '');
  const returns = (infoOf(ret).returns ?? []) as Array<{ transaction_index: number }>;
  const codes = (infoOf(ret).reason_codes ?? []) as Array<string | null>;
  return built(
    buildPacs004({
      messageId: ret.messageId,
      creationTime: isoTime(ret.updatedAtMs),
      original: {
        messageId: ret.originalMessageId ?? '',
        messageDefinitionId: original?.messageDefinitionId ?? 'pacs.008.001.09',
        creationTime: original?.creationTime,
      },
      transactions: ret.transactions.map((t, i) => {
        const otx = original?.transactions[returns[i]?.transaction_index ?? -1];
        const code = codes[i] ?? undefined;
        return {
          ...refs(t),
          originalAmount: amountText(otx?.amount, otx?.currency),
          originalSettlementDate: otx?.settlementDate,
          returnedAmount: amountText(t.amount, t.currency)!,
          settlementDate: ret.settledAtMs === undefined ? undefined : isoDate(ret.settledAtMs),
          ...(code !== undefined && /^[A-Z0-9]{1,4}$/.test(code)
            ? { reasonCode: code }
            : { proprietaryReason: code ?? 'RETURN' }),
        };
      }),
    }),
  );
}

const GROUP_CANCELLATION = { CNCL: 'ACCR', RJCR: 'RJCR', PECR: 'PDCR' } as const;

function camt029(r: BridgeRecord, get: Lookup): string {
  const c = r.kind === 'camt056' ? r : lastLinked(r, 'camt056', get);
  if (c === undefined || c.resolution === undefined)
    throw unavailable(r, 'camt029', 'no cancellation was requested');
  const resolution = c.resolution as keyof typeof GROUP_CANCELLATION;
  const info = infoOf(c);
  const a = assignmentOf(c);
  const txStatus = GROUP_CANCELLATION[resolution] as 'ACCR' | 'RJCR' | 'PDCR';
  return built(
    buildCamt029({
      assignmentId: derivedId('C029', c),
      creationTime: isoTime(c.updatedAtMs),
      // The bridge answers as the assignee of the request, to its assigner.
      assignerBic: a.assigneeBic,
      assigneeBic: a.assignerBic,
      caseId: a.caseId,
      caseCreatorBic: a.assignerBic,
      status: resolution,
      original: {
        messageId: c.originalMessageId ?? '',
        messageDefinitionId: String(info.original_definition_id ?? ''),
        creationTime:
          typeof info.original_creation_time === 'string' ? info.original_creation_time : undefined,
      },
      groupCancellationStatus: txStatus,
      transactions: c.transactions.map((t) => ({
        ...refs(t),
        status: txStatus,
        ...(txStatus === 'RJCR' ? reasonOf(c) : {}),
      })),
    }),
  );
}

function servicerId(r: BridgeRecord): string {
  return `TORANA-${(r.transactionHash ?? '').slice(0, 16) || 'PENDING'}`;
}

function sese024(r: BridgeRecord): string {
  if (r.kind !== 'sese023') throw unavailable(r, 'sese024', `a ${r.kind} is not a settlement instruction`);
  const rejection = infoOf(r).ledger_rejection as
    | { code: string; instruction_index: number | null }
    | undefined;
  const base = { accountOwnerTransactionId: r.messageId, accountServicerTransactionId: servicerId(r) };
  if (r.pacs002Code === 'RJCT') {
    const reasonCode =
      rejection === undefined
        ? 'OTHR'
        : securitiesReason(rejection.code, rejection.instruction_index ?? undefined);
    return built(buildSese024({ ...base, processing: { status: 'rejected', reasonCode } }));
  }
  if (r.pacs002Code === 'ACTC') return built(buildSese024({ ...base, processing: { status: 'pending' } }));
  return built(
    buildSese024({
      ...base,
      processing: { status: 'accepted' },
      matching: { status: 'matched' },
      ...(r.pacs002Code === 'ACSP' ? { settlement: { status: 'pending' } } : {}),
    }),
  );
}

type Parties = {
  depository_bic: string | null;
  party_bic: string | null;
  party_safekeeping_account: string | null;
} | null;
const parties = (p: Parties) =>
  p === null
    ? undefined
    : {
        depositoryBic: p.depository_bic ?? undefined,
        partyBic: p.party_bic ?? undefined,
        partySafekeepingAccount: p.party_safekeeping_account ?? undefined,
      };

/** The facts planSese023 keeps in `info` (securities.ts). */
interface SeseInfo {
  movement: 'DELI' | 'RECE';
  payment: 'APMT' | 'FREE';
  trade_date: string | null;
  settlement_date: string;
  isin: string;
  quantity_type: 'unit' | 'face_amount' | 'amortised_value';
  quantity: string;
  safekeeping_account: string;
  delivering: Parties;
  receiving: Parties;
  settlement_amount: string | null;
  currency: string;
  credit_debit: 'CRDT' | 'DBIT' | null;
}

function sese025(r: BridgeRecord): string {
  if (r.kind !== 'sese023') throw unavailable(r, 'sese025', `a ${r.kind} is not a settlement instruction`);
  if (r.pacs002Code !== 'ACSC' || r.settledAtMs === undefined)
    throw unavailable(r, 'sese025', `not settled (${r.pacs002Code})`);
  const i = infoOf(r) as unknown as SeseInfo;
  const movement = i.movement;
  const amount = i.settlement_amount;
  return built(
    buildSese025({
      accountOwnerTransactionId: r.messageId,
      accountServicerTransactionId: servicerId(r),
      movement,
      payment: i.payment,
      tradeDate: i.trade_date ?? undefined,
      settlementDate: i.settlement_date,
      effectiveSettlementDate: isoDate(r.settledAtMs),
      isin: i.isin,
      quantity: { type: i.quantity_type, value: i.quantity },
      safekeepingAccount: i.safekeeping_account,
      delivering: parties(i.delivering),
      receiving: parties(i.receiving),
      ...(amount === null
        ? {}
        : {
            settledAmount: {
              currency: i.currency,
              value: amount,
              creditDebit: i.credit_debit ?? (movement === 'DELI' ? 'CRDT' : 'DBIT'),
            },
          }),
    }),
  );
}

/** The report of a record as XML, or `iso_report_unavailable`. */
export function buildReport(r: BridgeRecord, report: ReportKind, get: Lookup): string {
  switch (report) {
    case 'pacs002':
      return pacs002(r);
    case 'pacs004':
      return pacs004(r, get);
    case 'camt029':
      return camt029(r, get);
    case 'sese024':
      return sese024(r);
    case 'sese025':
      return sese025(r);
  }
}
