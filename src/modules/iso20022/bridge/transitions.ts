// Status transitions of a record (README "Status codes"), as pure functions: each returns the next
// record, or undefined when the change does not apply (a late or repeated event: statuses only move
// forward, status.ts `advances`).

import { settleCancellations } from './cancellations.js';
import { type BridgeRecord, infoOf } from './record.js';
import { advances, type IsoReason, withReason } from './status.js';
import type { RecordChange } from './store.js';

export interface LedgerRejection {
  readonly code: string;
  readonly instructionIndex: number | undefined;
}

/** Accepted by the pipeline (queued). */
export function queued(r: BridgeRecord, nowMs: number): BridgeRecord | undefined {
  if (r.status !== 'Pending' || !advances(r.pacs002Code, 'ACSP')) return undefined;
  return { ...r, pacs002Code: 'ACSP', updatedAtMs: nowMs };
}

/** Committed in block `height` at `settledAtMs` (the block's time). */
export function settled(r: BridgeRecord, height: number, settledAtMs: number, nowMs: number) {
  if (r.status !== 'Pending' || !advances(r.pacs002Code, 'ACSC')) return undefined;
  const next = {
    ...r,
    status: 'Accepted',
    pacs002Code: 'ACSC',
    blockHeight: height,
    settledAtMs,
    updatedAtMs: nowMs,
  };
  return withReason(next, undefined);
}

export function rejected(
  r: BridgeRecord,
  reason: IsoReason,
  rejection: LedgerRejection | undefined,
  height: number | undefined,
  nowMs: number,
): BridgeRecord | undefined {
  if (r.status !== 'Pending' || !advances(r.pacs002Code, 'RJCT')) return undefined;
  const info =
    rejection === undefined
      ? r.info
      : {
          ...infoOf(r),
          ledger_rejection: { code: rejection.code, instruction_index: rejection.instructionIndex ?? null },
        };
  const next = {
    ...r,
    status: 'Rejected',
    pacs002Code: 'RJCT',
    updatedAtMs: nowMs,
    info: info as BridgeRecord['info'],
    ...(height === undefined ? {} : { blockHeight: height }),
  };
  return withReason(next, reason);
}

/** A rejected return gives its amounts back to the originals' return tallies. */
function releaseReturns(ret: BridgeRecord, get: (id: string) => BridgeRecord | undefined, nowMs: number) {
  const out = new Map<string, BridgeRecord>();
  const returns = (infoOf(ret).returns ?? []) as Array<{
    original_message_id: string;
    transaction_index: number;
  }>;
  returns.forEach((link, i) => {
    const original = out.get(link.original_message_id) ?? get(link.original_message_id);
    const amount = ret.transactions[i]?.amount;
    if (original === undefined || amount === undefined) return;
    const transactions = original.transactions.map((t, j) => {
      if (j !== link.transaction_index || t.returned === undefined) return t;
      const left = t.returned.mantissa - amount.mantissa;
      return { ...t, returned: { mantissa: left < 0n ? 0n : left, scale: t.returned.scale } };
    });
    out.set(original.messageId, { ...original, transactions, updatedAtMs: nowMs });
  });
  return [...out.values()];
}

/** Changes to other records that follow a record reaching a final status. */
export function consequences(
  r: BridgeRecord,
  get: (id: string) => BridgeRecord | undefined,
  nowMs: number,
): RecordChange[] {
  const changes: RecordChange[] = settleCancellations(r, get, nowMs).map((c) => ({
    record: c,
    event: c.resolution === 'CNCL' ? 'cancelled' : 'cancellation_rejected',
  }));
  if (r.kind === 'pacs004' && r.pacs002Code === 'RJCT') {
    for (const o of releaseReturns(r, get, nowMs)) changes.push({ record: o, event: 'return_released' });
  }
  return changes;
}
