// What the multisig module asks of the core through its generic hooks (state/module-host.ts): a multisig
// account never signs a transaction, a signatory of one cannot be removed and a removed multisig takes
// its spec and proposals with it, and its instructions name the multisig (and a proposed batch's
// parties) in the commit-time account index.

import { type ExecContext, type Fail, fail } from '../../state/exec-context.js';
import type { AuthorityCheck, InstructionParties, RemovalHook } from '../../state/module-host.js';
import { innerInstructions } from './proposal-row.js';

/** A multisig account acts only through its proposals (docs/multisig.md), never as a signer. */
export const refuseMultisigAuthority: AuthorityCheck = (view, authority) =>
  view.t.multisigAccount.has(authority)
    ? fail('multisig_direct_signing', `${authority} is a multisig account`)
    : undefined;

/** UnregisterAccount: a signatory of a multisig cannot go (every signatory is a registered account). */
function multisigMemberFail(x: ExecContext, account: string): Fail | undefined {
  const [first] = x.t.multisigAccount.children('multisigsByMember', account);
  return first === undefined
    ? undefined
    : fail('multisig_member_in_use', `${account} is a signatory of ${first}`);
}

/** UnregisterAccount of a multisig account: its spec and proposals go with it. */
function dropMultisig(x: ExecContext, account: string): void {
  if (!x.t.multisigAccount.has(account)) return;
  for (const id of x.t.multisigProposal.children('proposalsByMultisig', account))
    x.t.multisigProposal.delete(id);
  x.t.multisigAccount.delete(account);
}

/** Only account removal concerns multisig (no multisig row hangs off an asset definition). */
export const MULTISIG_REMOVAL: RemovalHook = {
  refuse: (x, removed) => (removed.kind === 'account' ? multisigMemberFail(x, removed.id) : undefined),
  drop: (x, removed) => {
    if (removed.kind === 'account') dropMultisig(x, removed.id);
  },
};

/** The multisig account, and the parties its proposed batch names. */
export const MULTISIG_PARTIES: InstructionParties = {
  RegisterMultisig: (i) => [i.account],
  ProposeMultisig: (i, partiesOf) => [i.multisig, ...innerInstructions(i.instructions).flatMap(partiesOf)],
  ApproveMultisig: (i) => [i.multisig],
  CancelMultisig: (i) => [i.multisig],
  SetMultisigSpec: (i) => [i.multisig],
};
