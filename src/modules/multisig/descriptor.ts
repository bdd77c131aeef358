// The multisig module (docs/multisig.md): accounts whose id is derived from a domain and a seed, that
// act only through proposals their signatories approve up to a quorum, executed as the multisig.

import { MultisigAccountCodec } from '../../model/multisig.js';
import { MultisigProposalCodec } from '../../model/multisig-proposal.js';
import type { LedgerModule } from '../descriptor.js';
import { registerMultisigCommands } from './commands.js';
import { multisigFamily } from './family.js';
import {
  approveMultisig,
  cancelMultisig,
  proposeMultisig,
  registerMultisig,
  setMultisigSpec,
} from './handlers.js';
import { MULTISIG_PARTIES, MULTISIG_REMOVAL, refuseMultisigAuthority } from './hooks.js';
import { multisigReadPort } from './reads.js';
import { MULTISIG_SDK } from './sdk.js';

export const multisigModule: LedgerModule = {
  name: 'multisig',
  instructions: {
    RegisterMultisig: registerMultisig,
    ProposeMultisig: proposeMultisig,
    ApproveMultisig: approveMultisig,
    CancelMultisig: cancelMultisig,
    SetMultisigSpec: setMultisigSpec,
  },
  tables: ['multisigAccount', 'multisigProposal'],
  schemaTypes: [MultisigAccountCodec, MultisigProposalCodec],
  events: [
    'MultisigSpecSet',
    'MultisigProposed',
    'MultisigApproved',
    'MultisigExecuted',
    'MultisigCancelApproved',
    'MultisigCanceled',
  ],
  rejections: [
    'multisig_not_found',
    'multisig_spec_invalid',
    'multisig_account_id_mismatch',
    'multisig_direct_signing',
    'multisig_not_signatory',
    'multisig_proposal_not_found',
    'multisig_proposal_exists',
    'multisig_proposal_expired',
    'multisig_proposal_not_pending',
    'multisig_already_approved',
    'multisig_self_only',
    'multisig_nesting_too_deep',
    'multisig_member_in_use',
    'multisig_instructions_invalid',
    'multisig_proposals_full',
  ],
  authorityCheck: refuseMultisigAuthority,
  removal: MULTISIG_REMOVAL,
  parties: MULTISIG_PARTIES,
  routes: (env) =>
    multisigFamily(multisigReadPort(env.state, env.deps.ports.chain), env.deps, env.signedRequests),
  sdk: MULTISIG_SDK,
  cli: registerMultisigCommands,
  docs: 'docs/multisig.md',
};
