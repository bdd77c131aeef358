// Execution of a multisig proposal whose approvals reached the quorum (docs/multisig.md §Execution).
// Runs in the transaction whose approval (or proposal) reached it, as the multisig account, through the
// normal handlers (ExecContext.runAs), so permissions and the modules' transfer checks apply as to any
// transaction.
//
// Exactly once: the proposal is marked FINALIZED before its batch runs, so the batch cannot approve its
// own proposal again, and later approvals meet multisig_proposal_not_pending. A failing batch is undone
// (its writes and events) and recorded as the proposal's result `Rejected{reason}`: the approving
// transaction itself commits, so the attempt is final and visible, never retried by later approvals
// (except a batch over the transaction's weight cap, which refuses the approving transaction instead).

import { reject } from '../../model/rejections.js';
import { type ExecContext, type Fail, fail } from '../../state/exec-context.js';
import { MULTISIG_NESTING_MAX, type MultisigResult, proposalRowId } from './model.js';
import type { MultisigProposal } from './proposal-row.js';
import { innerInstructions } from './proposal-row.js';

/** Rejection messages stay well inside the 1024-byte wire limit. */
const MESSAGE_CHARS_MAX = 300;

export function executeProposal(x: ExecContext, p: MultisigProposal): Fail | undefined {
  if (x.runAsDepth >= MULTISIG_NESTING_MAX)
    return fail('multisig_nesting_too_deep', `more than ${MULTISIG_NESTING_MAX} nested multisig executions`);
  const id = proposalRowId(p.multisig, p.instructionsHash);
  const finalized = {
    ...p,
    status: { kind: 'Finalized' as const },
    executedAtHeight: x.block.height,
    terminalAtMs: x.block.blockTimeMs,
  };
  x.t.multisigProposal.set(id, { ...finalized, result: { kind: 'Committed' } });
  const failed = x.runAs(p.multisig, innerInstructions(p.instructions));
  // The batch's weight is the approving transaction's (docs/cost-model.md): over the cap, the whole
  // transaction is refused (the proposal stays pending), never recorded as the proposal's result.
  if (failed?.fail.code === 'transaction_weight_exceeded') return failed.fail;
  let result: MultisigResult = { kind: 'Committed' };
  if (failed !== undefined) {
    const message = (failed.fail.message ?? failed.fail.code).slice(0, MESSAGE_CHARS_MAX);
    result = { kind: 'Rejected', reason: reject(failed.fail.code, message, failed.index) };
    x.t.multisigProposal.set(id, { ...finalized, result });
  }
  x.emit({ kind: 'MultisigExecuted', multisig: p.multisig, instructionsHash: p.instructionsHash, result });
  return undefined;
}
