// pacs.004 → a return transfer per returned transaction, from the original's creditor account back to
// its debtor account, linked to the original record (README "Mapping"). The original must be a
// settled (ACSC) pacs.008/pacs.009 of this bridge; the returned amounts, over every return so far, may
// not exceed the original amount, in the original currency. The tally is reserved when the return is
// accepted and released if its transfer is rejected (service.ts). pacs.002 in → recorded against the
// original(s) it reports on, without ledger effect.

import { assetId } from '../../../model/ids.js';
import type { Instruction } from '../../../model/instructions.js';
import type { Numeric } from '../../../model/numeric.js';
import type { Pacs002Message } from '../messages/pacs002.js';
import type { Pacs004Message, ReturnTransaction } from '../messages/returns.js';
import { businessRule } from './errors.js';
import {
  currencyToScale,
  indexed,
  newRecord,
  type Plan,
  type PlanContext,
  scaleOf,
  withLink,
} from './plan.js';
import type { BridgeRecord, RecordTransaction, RecordTransfer } from './record.js';
import type { RecordChange } from './store.js';

const PAYMENT_KINDS: ReadonlySet<string> = new Set(['pacs008', 'pacs009']);

/** The settled payment record a return or report names, or a 422 at `path`. */
export function originalOf(ctx: PlanContext, id: string, path: string, kinds = PAYMENT_KINDS): BridgeRecord {
  const r = ctx.record(id);
  if (r === undefined) throw businessRule('original_unknown', path, `no bridge record of message ${id}`);
  if (!kinds.has(r.kind)) {
    throw businessRule('original_kind', path, `${id} is a ${r.kind}, not one of ${[...kinds].join(', ')}`);
  }
  return r;
}

/** The original transaction a return names: by UETR, end-to-end id, transaction id or instruction id. */
function matchTransaction(original: BridgeRecord, t: ReturnTransaction, path: string): number {
  const refs = t.refs;
  const given = [refs.uetr, refs.endToEndId, refs.transactionId, refs.instructionId].some(
    (r) => r !== undefined,
  );
  if (!given && original.transactions.length === 1) return 0;
  const i = original.transactions.findIndex(
    (o) =>
      (refs.uetr !== undefined && o.uetr === refs.uetr) ||
      (refs.endToEndId !== undefined && o.endToEndId === refs.endToEndId) ||
      (refs.transactionId !== undefined && o.transactionId === refs.transactionId) ||
      (refs.instructionId !== undefined && o.instructionId === refs.instructionId),
  );
  if (i < 0) {
    throw businessRule(
      'original_transaction_unknown',
      path,
      `no transaction of ${original.messageId} matches`,
    );
  }
  return i;
}

function addTally(tx: RecordTransaction, amount: Numeric): RecordTransaction {
  const before = tx.returned?.mantissa ?? 0n;
  return { ...tx, returned: { mantissa: before + amount.mantissa, scale: amount.scale } };
}

interface ReturnLeg {
  readonly transfer: RecordTransfer;
  readonly transaction: RecordTransaction;
  readonly original: { readonly messageId: string; readonly index: number };
}

function returnLeg(
  ctx: PlanContext,
  originals: Map<string, BridgeRecord>,
  t: ReturnTransaction,
  base: string,
) {
  const groupOrOwn = `${base}/OrgnlGrpInf/OrgnlMsgId`;
  const original = originals.get(t.originalMessageId) ?? originalOf(ctx, t.originalMessageId, groupOrOwn);
  if (original.pacs002Code !== 'ACSC') {
    throw businessRule(
      'original_not_settled',
      groupOrOwn,
      `${original.messageId} is ${original.pacs002Code}, not settled (ACSC)`,
    );
  }
  const index = matchTransaction(original, t, `${base}/OrgnlEndToEndId`);
  const otx = original.transactions[index]!;
  const amountPath = `${base}/RtrdIntrBkSttlmAmt`;
  if (otx.currency !== t.amount.currency) {
    throw businessRule('currency_mismatch', `${amountPath}/@Ccy`, `the original was paid in ${otx.currency}`);
  }
  const already = otx.returned?.mantissa ?? 0n;
  if (otx.amount === undefined || already + t.amount.mantissa > otx.amount.mantissa) {
    throw businessRule('return_exceeds_original', amountPath, 'returns would exceed the original amount');
  }
  const paid = original.transfers.find((p) => p.transactionIndex === index && p.leg === 'payment')!;
  const scale = scaleOf(ctx, paid.assetDefinition, amountPath);
  const amount = currencyToScale(t.amount, scale);
  if (amount === undefined) throw businessRule('amount_scale', amountPath, `does not fit scale ${scale}`);
  const returned = { mantissa: t.amount.mantissa, scale: t.amount.scale };
  const transactions = original.transactions.map((o, i) => (i === index ? addTally(o, returned) : o));
  originals.set(original.messageId, { ...original, transactions });
  const leg: ReturnLeg = {
    transfer: { ...paid, leg: 'return', source: paid.destination, destination: paid.source, amount },
    transaction: { ...otx, amount: returned, currency: t.amount.currency },
    original: { messageId: original.messageId, index },
  };
  return leg;
}

export function planPacs004(message: Pacs004Message, ctx: PlanContext): Plan {
  const originals = new Map<string, BridgeRecord>();
  const legs = message.transactions.map((t, i) =>
    returnLeg(ctx, originals, t, indexed('/Document/PmtRtr/TxInf', i, message.transactions.length)),
  );
  const transfers = legs.map((l, i) => ({ ...l.transfer, transactionIndex: i }));
  const instructions: Instruction[] = transfers.map((t) => ({
    kind: 'TransferAsset',
    source: assetId(t.assetDefinition, t.source),
    destination: t.destination,
    amount: t.amount,
  }));
  const linked: RecordChange[] = [...originals.values()].map((o) => ({
    record: { ...withLink(o, 'pacs004', message.messageId, '/Document/PmtRtr'), updatedAtMs: ctx.nowMs },
    event: 'return_requested',
  }));
  const record = {
    ...newRecord(ctx, 'pacs004', message.messageId, message.messageDefinitionId, message.creationTime),
    originalMessageId: legs[0]!.original.messageId,
    transfers,
    transactions: legs.map((l) => l.transaction),
    info: {
      returns: legs.map((l) => ({
        original_message_id: l.original.messageId,
        transaction_index: l.original.index,
      })),
      reason_codes: message.transactions.map((t) => t.reasonCode ?? t.reasons[0]?.proprietary ?? null),
    },
  };
  return { record, instructions, linked };
}

export function planPacs002(message: Pacs002Message, ctx: PlanContext): Plan {
  const named = new Map<string, string>();
  message.groups.forEach((g, i) => {
    if (g.original.messageId !== undefined) {
      const path = indexed('/Document/FIToFIPmtStsRpt/OrgnlGrpInfAndSts', i, message.groups.length);
      named.set(g.original.messageId, `${path}/OrgnlMsgId`);
    }
  });
  message.transactions.forEach((t, i) => {
    const path = indexed('/Document/FIToFIPmtStsRpt/TxInfAndSts', i, message.transactions.length);
    if (t.originalMessageId !== undefined && !named.has(t.originalMessageId))
      named.set(t.originalMessageId, `${path}/OrgnlGrpInf/OrgnlMsgId`);
  });
  const any = new Set(['pacs008', 'pacs009', 'pacs004']);
  const linked = [...named].map(([id, path]) => ({
    record: {
      ...withLink(originalOf(ctx, id, path, any), 'pacs002', message.messageId, path),
      updatedAtMs: ctx.nowMs,
    },
    event: 'status_report',
  }));
  const record: BridgeRecord = {
    ...newRecord(ctx, 'pacs002', message.messageId, message.messageDefinitionId, message.creationTime),
    status: 'Accepted',
    originalMessageId: [...named.keys()][0]!,
    info: {
      groups: message.groups.map((g) => ({
        original_message_id: g.original.messageId ?? null,
        status: g.status ?? null,
      })),
      transactions: message.transactions.map((t) => ({
        original_message_id: t.originalMessageId ?? null,
        original_end_to_end_id: t.refs.endToEndId ?? null,
        status: t.status ?? null,
        reason: t.reasons[0]?.code ?? t.reasons[0]?.proprietary ?? null,
      })),
    },
  };
  return { record, instructions: [], linked };
}
