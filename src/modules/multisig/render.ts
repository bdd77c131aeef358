// Proposal and spec rows → answer values (views.ts). Status is judged at the committed tip's block time:
// a collecting proposal at or past its expiry shows as EXPIRED (model/multisig.ts proposalStatus).

import type { Infer } from '../../codec/codec.js';
import {
  approvalWeight,
  type MultisigAccount,
  type MultisigStatus,
  proposalStatus,
  STATUS_TEXT,
} from './model.js';
import type { MultisigProposal } from './proposal-row.js';
import type { MultisigApprovalItemView, MultisigProposalView, MultisigSpecView } from './views.js';

export type ProposalAnswer = Infer<typeof MultisigProposalView>;
export type SpecAnswer = Infer<typeof MultisigSpecView>;
export type ApprovalItem = Infer<typeof MultisigApprovalItemView>;

/** Status names accepted by the filters. */
export const STATUS_NAMES: readonly string[] = Object.values(STATUS_TEXT);

export function statusText(p: MultisigProposal, nowMs: number): string {
  return STATUS_TEXT[proposalStatus(p, nowMs)];
}

export function specAnswer(m: MultisigAccount): SpecAnswer {
  return {
    multisigAccountId: m.account,
    signatories: m.spec.signatories,
    quorum: m.spec.quorum,
    transactionTtlMs: m.spec.transactionTtlMs,
  };
}

export function proposalAnswer(m: MultisigAccount, p: MultisigProposal, nowMs: number): ProposalAnswer {
  const a: ProposalAnswer = {
    proposalId: p.instructionsHash,
    multisigAccountId: p.multisig,
    instructionsHash: p.instructionsHash,
    instructions: p.instructions,
    proposer: p.proposer,
    proposedAtMs: p.proposedAtMs,
    expiresAtMs: p.expiresAtMs,
    approvals: p.approvals,
    approvalWeight: approvalWeight(m.spec, p.approvals),
    quorum: m.spec.quorum,
    cancelApprovals: p.cancelApprovals,
    status: statusText(p, nowMs),
  };
  if (p.executedAtHeight !== undefined) a.executedAtHeight = p.executedAtHeight;
  if (p.result !== undefined) a.result = p.result;
  const terminal = terminalAtMs(p, nowMs);
  if (terminal !== undefined) a.terminalAtMs = terminal;
  return a;
}

/** When it stopped collecting: finalized or canceled (recorded), or expired (its expiry). */
function terminalAtMs(p: MultisigProposal, nowMs: number): number | undefined {
  const s: MultisigStatus = proposalStatus(p, nowMs);
  return s === 'Expired' ? p.expiresAtMs : p.terminalAtMs;
}

/** The kind of a one-instruction batch, else "Batch". */
export function operationType(p: MultisigProposal): string {
  return p.instructions.length === 1 ? p.instructions[0]!.kind : 'Batch';
}

/** Whether `caller` is a signatory that can still approve `p`. */
export function requiresSignatureOf(m: MultisigAccount, p: MultisigProposal, caller: string, nowMs: number) {
  return (
    m.spec.signatories.has(caller) &&
    proposalStatus(p, nowMs) === 'CollectingSignatures' &&
    !p.approvals.includes(caller)
  );
}

export function approvalItem(
  m: MultisigAccount,
  p: MultisigProposal,
  caller: string,
  nowMs: number,
): ApprovalItem {
  const proposal = proposalAnswer(m, p, nowMs);
  const item: ApprovalItem = {
    multisigAccountId: m.account,
    spec: specAnswer(m),
    proposalId: p.instructionsHash,
    instructionsHash: p.instructionsHash,
    proposal,
    operationType: operationType(p),
    status: proposal.status,
    requiresMySignature: requiresSignatureOf(m, p, caller, nowMs),
  };
  if (proposal.terminalAtMs !== undefined) item.terminalAtMs = proposal.terminalAtMs;
  return item;
}
