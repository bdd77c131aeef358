// camt.056 → cancellation of a not-yet-settled payment, answered by camt.029 (README "Cancellation").
// The bridge holds nothing back and cannot pull a transaction out of a block, so the answer follows
// the original's fate on the ledger:
//   original ACTC and not handed to the pipeline → CNCL now; the bridge withdraws it (RJCT, never sent);
//   original ACSP (queued)                       → PECR, then CNCL if it ends RJCT, RJCR if it commits;
//   original RJCT                                 → CNCL (it did not and will not settle);
//   original ACSC                                 → RJCR, proprietary reason ALREADY_SETTLED (ask for a
//                                                    pacs.004 return instead).

import type { Camt056Message } from '../messages/camt056.js';
import { businessRule, fieldError } from './errors.js';
import { newRecord, type Plan, type PlanContext, withLink } from './plan.js';
import { type BridgeRecord, infoOf, type RecordTransaction, type Resolution } from './record.js';
import { originalOf } from './returns.js';
import type { IsoReason } from './status.js';
import { withReason } from './status.js';

const ROOT = '/Document/FIToFIPmtCxlReq';
const CANCELLABLE: ReadonlySet<string> = new Set(['pacs008', 'pacs009', 'pacs004']);

export const ALREADY_SETTLED: IsoReason = {
  proprietary: 'ALREADY_SETTLED',
  text: 'the original is committed on the ledger; request a return (pacs.004) instead',
};
export const WITHDRAWN: IsoReason = {
  proprietary: 'CANCELLED',
  text: 'withdrawn by a cancellation request before it reached the ledger',
};

/** The resolution a cancellation gets given the original's current state. */
export function resolutionFor(original: BridgeRecord, inPipeline: boolean): Resolution {
  if (original.pacs002Code === 'ACSC') return 'RJCR';
  if (original.pacs002Code === 'RJCT') return 'CNCL';
  if (original.pacs002Code === 'ACTC' && !inPipeline) return 'CNCL';
  return 'PECR';
}

/** Status and reason of a camt.056 record for a resolution. */
export function resolved(r: BridgeRecord, resolution: Resolution, nowMs: number): BridgeRecord {
  const status = resolution === 'PECR' ? 'Pending' : resolution === 'CNCL' ? 'Accepted' : 'Rejected';
  const base = { ...r, resolution, status, updatedAtMs: nowMs };
  return withReason(base, resolution === 'RJCR' ? ALREADY_SETTLED : undefined);
}

function targetsOf(message: Camt056Message): string[] {
  const ids = message.transactions.map((t) => t.originalMessageId);
  for (const g of message.originalGroups) if (g.messageId !== undefined) ids.push(g.messageId);
  return [...new Set(ids)];
}

function transactionOf(t: Camt056Message['transactions'][number]): RecordTransaction {
  return {
    ...(t.refs.instructionId === undefined ? {} : { instructionId: t.refs.instructionId }),
    ...(t.refs.endToEndId === undefined ? {} : { endToEndId: t.refs.endToEndId }),
    ...(t.refs.transactionId === undefined ? {} : { transactionId: t.refs.transactionId }),
    ...(t.refs.uetr === undefined ? {} : { uetr: t.refs.uetr }),
  };
}

export function planCamt056(message: Camt056Message, ctx: PlanContext): Plan {
  const a = message.assignment;
  // camt.029 names both agents (Assgnr/Assgne are mandatory there), so the request must carry them.
  if (a.assignerBic === undefined)
    throw fieldError(
      'required',
      `${ROOT}/Assgnmt/Assgnr/Agt/FinInstnId/BICFI`,
      'the assigner BIC is required by the bridge',
    );
  if (a.assigneeBic === undefined)
    throw fieldError(
      'required',
      `${ROOT}/Assgnmt/Assgne/Agt/FinInstnId/BICFI`,
      'the assignee BIC is required by the bridge',
    );
  const targets = targetsOf(message);
  const path = `${ROOT}/Undrlyg/TxInf/OrgnlGrpInf/OrgnlMsgId`;
  if (targets.length !== 1)
    throw businessRule(
      'originals_multiple',
      path,
      'a cancellation request names exactly one original message',
    );
  const original = originalOf(ctx, targets[0]!, path, CANCELLABLE);
  const resolution = resolutionFor(original, ctx.inPipeline(original.messageId));
  let updated = withLink(original, 'camt056', a.id, path);
  if (resolution === 'CNCL' && original.pacs002Code === 'ACTC') {
    updated = withReason({ ...updated, status: 'Rejected', pacs002Code: 'RJCT' }, WITHDRAWN);
  }
  const base = newRecord(ctx, 'camt056', a.id, message.messageDefinitionId, a.creationTime);
  const record = resolved(
    {
      ...base,
      originalMessageId: original.messageId,
      transactions: message.transactions.map(transactionOf),
      info: {
        assigner_bic: a.assignerBic,
        assignee_bic: a.assigneeBic,
        case_id: message.caseId ?? null,
        original_definition_id: original.messageDefinitionId,
        original_creation_time: original.creationTime ?? null,
        reason_code: message.transactions[0]?.reasonCode ?? null,
      },
    },
    resolution,
    ctx.nowMs,
  );
  const event =
    updated.pacs002Code === 'RJCT' && original.pacs002Code === 'ACTC'
      ? 'withdrawn'
      : 'cancellation_requested';
  return { record, instructions: [], linked: [{ record: { ...updated, updatedAtMs: ctx.nowMs }, event }] };
}

/** Pending cancellations (PECR) of an original that just reached a final status. */
export function settleCancellations(
  original: BridgeRecord,
  get: (id: string) => BridgeRecord | undefined,
  nowMs: number,
): BridgeRecord[] {
  const out: BridgeRecord[] = [];
  for (const link of original.links) {
    if (link.kind !== 'camt056') continue;
    const c = get(link.messageId);
    if (c === undefined || c.resolution !== 'PECR') continue;
    out.push(resolved(c, resolutionFor(original, false), nowMs));
  }
  return out;
}

export function assignmentOf(r: BridgeRecord) {
  const info = infoOf(r);
  return {
    assignerBic: String(info.assigner_bic ?? ''),
    assigneeBic: String(info.assignee_bic ?? ''),
    caseId: typeof info.case_id === 'string' ? info.case_id : undefined,
  };
}
