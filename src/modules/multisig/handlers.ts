// Multisig instructions (docs/multisig.md). Check order of each handler, first
// failing check wins:
//   RegisterMultisig  id canonical → id derived from (domain, seed) → domain → permission (as
//                     RegisterAccount) → id free → spec → signatories exist
//   SetMultisigSpec   multisig → authority is the multisig itself → spec → signatories exist
//   ProposeMultisig   multisig → signatory → 1..64 instructions → no live proposal of the same batch
//   ApproveMultisig   multisig → signatory → proposal → pending → not expired → not approved yet
//   CancelMultisig    multisig → (the multisig itself: cancels at once) signatory → proposal → pending →
//                     not expired → not asked yet; cancel weight at quorum cancels
// When approval weight reaches the quorum the batch runs in the same transaction (execute.ts).

import { parseAccountId } from '../../model/ids.js';
import { authorize } from '../../state/authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import { executeProposal } from './execute.js';
import {
  approvalWeight,
  MULTISIG_INSTRUCTIONS_MAX,
  MULTISIG_PENDING_PER_PROPOSER_MAX,
  type MultisigAccount,
  type MultisigSpec,
  multisigAccountId,
  proposalRowId,
  proposalStatus,
  specProblem,
} from './model.js';
import { innerInstructions, instructionsHash, type MultisigProposal } from './proposal-row.js';

function isFail(v: object): v is Fail {
  return 'code' in v;
}

function multisigRow(x: ExecContext, id: string): MultisigAccount | Fail {
  return x.t.multisigAccount.get(id) ?? fail('multisig_not_found', `no multisig account ${id}`);
}

function signatory(x: ExecContext, m: MultisigAccount): Fail | undefined {
  return m.spec.signatories.has(x.authority)
    ? undefined
    : fail('multisig_not_signatory', `${x.authority} is not a signatory of ${m.account}`);
}

/** The spec's own problems, then every signatory must be a registered account. */
function specFail(x: ExecContext, account: string, spec: MultisigSpec): Fail | undefined {
  const p = specProblem(account, spec);
  if (p !== undefined) return fail('multisig_spec_invalid', p);
  for (const s of [...spec.signatories.keys()].sort())
    if (!x.t.account.has(s)) return fail('account_not_found', `no signatory account ${s}`);
  return undefined;
}

/** A proposal that may still collect approvals at block time. */
function pending(x: ExecContext, multisig: string, hash: string): MultisigProposal | Fail {
  const p = x.t.multisigProposal.get(proposalRowId(multisig, hash));
  if (p === undefined) return fail('multisig_proposal_not_found', `no proposal ${hash} of ${multisig}`);
  const status = proposalStatus(p, x.block.blockTimeMs);
  if (status === 'Expired')
    return fail('multisig_proposal_expired', `proposal ${hash} expired at ${p.expiresAtMs}`);
  if (status !== 'CollectingSignatures')
    return fail('multisig_proposal_not_pending', `proposal ${hash} is ${status}`);
  return p;
}

function withApprover(list: readonly string[], account: string): string[] {
  return [...list, account].sort();
}

export const registerMultisig: Handler<'RegisterMultisig'> = (x, ins) => {
  const parts = parseAccountId(ins.account);
  if (parts === undefined || `${parts.signatory}@${parts.domain}` !== ins.account)
    return fail('invalid_parameter', `account id ${ins.account} is not canonical`);
  if (multisigAccountId(parts.domain, ins.seed) !== ins.account)
    return fail('multisig_account_id_mismatch', `derive the id from domain ${parts.domain} and the seed`);
  const domain = x.t.domain.get(parts.domain);
  if (domain === undefined) return fail('domain_not_found', `no domain ${parts.domain}`);
  const denied = authorize(x, [domain.ownedBy], 'CanRegisterAccountInDomain', parts.domain);
  if (denied) return denied;
  if (x.t.account.has(ins.account)) return fail('already_exists', `account ${ins.account} exists`);
  const bad = specFail(x, ins.account, ins.spec);
  if (bad) return bad;
  x.t.account.set(ins.account, { id: ins.account, metadata: new Map() });
  x.t.multisigAccount.set(ins.account, { account: ins.account, spec: ins.spec });
  x.emit({ kind: 'AccountCreated', id: ins.account });
  x.emit({ kind: 'MultisigSpecSet', account: ins.account, spec: ins.spec });
  return undefined;
};

/** Weights and quorum change only through the multisig itself: inside one of its executed proposals. */
export const setMultisigSpec: Handler<'SetMultisigSpec'> = (x, ins) => {
  const m = multisigRow(x, ins.multisig);
  if (isFail(m)) return m;
  if (x.authority !== ins.multisig)
    return fail(
      'multisig_self_only',
      'SetMultisigSpec runs only inside an executed proposal of the multisig',
    );
  const bad = specFail(x, ins.multisig, ins.spec);
  if (bad) return bad;
  x.t.multisigAccount.set(ins.multisig, { account: ins.multisig, spec: ins.spec });
  x.emit({ kind: 'MultisigSpecSet', account: ins.multisig, spec: ins.spec });
  return undefined;
};

export const proposeMultisig: Handler<'ProposeMultisig'> = (x, ins) => {
  const m = multisigRow(x, ins.multisig);
  if (isFail(m)) return m;
  const denied = signatory(x, m);
  if (denied) return denied;
  const n = ins.instructions.length;
  if (n < 1 || n > MULTISIG_INSTRUCTIONS_MAX)
    return fail('multisig_instructions_invalid', `${n} instructions; 1..${MULTISIG_INSTRUCTIONS_MAX}`);
  const hash = instructionsHash(innerInstructions(ins.instructions));
  const id = proposalRowId(ins.multisig, hash);
  const old = x.t.multisigProposal.get(id);
  if (old !== undefined && proposalStatus(old, x.block.blockTimeMs) === 'CollectingSignatures')
    return fail('multisig_proposal_exists', `proposal ${hash} is collecting signatures`);
  const full = proposerFull(x, ins.multisig);
  if (full) return full;
  const now = x.block.blockTimeMs;
  const p: MultisigProposal = {
    multisig: ins.multisig,
    instructionsHash: hash,
    instructions: ins.instructions,
    proposer: x.authority,
    proposedAtMs: now,
    expiresAtMs: now + m.spec.transactionTtlMs,
    approvals: [x.authority],
    cancelApprovals: [],
    status: { kind: 'CollectingSignatures' },
  };
  x.t.multisigProposal.set(id, p);
  const common = { multisig: ins.multisig, instructionsHash: hash };
  x.emit({ kind: 'MultisigProposed', ...common, proposer: x.authority, expiresAtMs: p.expiresAtMs });
  return approved(x, m, p);
};

/**
 * The authority's live proposals on the multisig are at the cap. Its expired ones are stored as Expired
 * on the way (each once), so the scan covers at most the cap plus the newly expired.
 */
function proposerFull(x: ExecContext, multisig: string): Fail | undefined {
  let live = 0;
  const t = x.t.multisigProposal;
  for (const id of t.children('openProposalsByProposer', `${multisig} ${x.authority}`)) {
    const p = t.get(id);
    if (p === undefined) continue;
    if (proposalStatus(p, x.block.blockTimeMs) === 'CollectingSignatures') live += 1;
    else t.set(id, { ...p, status: { kind: 'Expired' } });
  }
  return live < MULTISIG_PENDING_PER_PROPOSER_MAX
    ? undefined
    : fail(
        'multisig_proposals_full',
        `${x.authority} has ${live} live proposals on ${multisig}; at most ${MULTISIG_PENDING_PER_PROPOSER_MAX}`,
      );
}

/** After an approval landed: emit it, and execute when the weight reaches the quorum. */
function approved(x: ExecContext, m: MultisigAccount, p: MultisigProposal): Fail | undefined {
  const weight = approvalWeight(m.spec, p.approvals);
  const common = { multisig: p.multisig, instructionsHash: p.instructionsHash };
  x.emit({ kind: 'MultisigApproved', ...common, approver: x.authority, weight });
  return weight >= m.spec.quorum ? executeProposal(x, p) : undefined;
}

export const approveMultisig: Handler<'ApproveMultisig'> = (x, ins) => {
  const m = multisigRow(x, ins.multisig);
  if (isFail(m)) return m;
  const denied = signatory(x, m);
  if (denied) return denied;
  const p = pending(x, ins.multisig, ins.instructionsHash);
  if (isFail(p)) return p;
  if (p.approvals.includes(x.authority))
    return fail('multisig_already_approved', `${x.authority} approved ${ins.instructionsHash} already`);
  const next = { ...p, approvals: withApprover(p.approvals, x.authority) };
  x.t.multisigProposal.set(proposalRowId(p.multisig, p.instructionsHash), next);
  return approved(x, m, next);
};

export const cancelMultisig: Handler<'CancelMultisig'> = (x, ins) => {
  const m = multisigRow(x, ins.multisig);
  if (isFail(m)) return m;
  const self = x.authority === ins.multisig;
  const denied = self ? undefined : signatory(x, m);
  if (denied) return denied;
  const p = pending(x, ins.multisig, ins.instructionsHash);
  if (isFail(p)) return p;
  const id = proposalRowId(p.multisig, p.instructionsHash);
  const common = { multisig: p.multisig, instructionsHash: p.instructionsHash };
  let next = p;
  if (!self) {
    if (p.cancelApprovals.includes(x.authority))
      return fail(
        'multisig_already_approved',
        `${x.authority} asked to cancel ${p.instructionsHash} already`,
      );
    next = { ...p, cancelApprovals: withApprover(p.cancelApprovals, x.authority) };
    x.emit({ kind: 'MultisigCancelApproved', ...common, approver: x.authority });
  }
  if (self || approvalWeight(m.spec, next.cancelApprovals) >= m.spec.quorum) {
    next = { ...next, status: { kind: 'Canceled' }, terminalAtMs: x.block.blockTimeMs };
    x.emit({ kind: 'MultisigCanceled', ...common });
  }
  x.t.multisigProposal.set(id, next);
  return undefined;
};
