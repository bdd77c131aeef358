// The multisig module's wire declarations (docs/multisig.md): its instruction and event variants,
// rejection meanings, weights, stored row types and tables. Their tags, numbers and ids are in
// model/tags.ts; importing this file (src/modules/registry.ts does) declares them into the core's codecs
// and tables.

import { varuint } from '../../codec/primitives.js';
import { AccountId } from '../../model/ids.js';
import type { Instruction } from '../../model/instructions.js';
import { Hash } from '../../model/keys.js';
import { row, sized } from '../../model/weights.js';
import { declareModuleWire } from '../../state/module-wire.js';
import { type TableDef, tableDef } from '../../state/tables.js';
import {
  type MultisigAccount,
  MultisigAccountCodec,
  MultisigResultCodec,
  MultisigSpecCodec,
  proposalRowId,
  SeedText,
  specProblem,
} from './model.js';
import {
  InnerInstructions,
  innerInstructions,
  type MultisigProposal,
  MultisigProposalCodec,
  proposalProblem,
} from './proposal-row.js';

/**
 * RegisterMultisig creates the account whose id is derived from its domain and seed (model.ts) and its
 * spec; the proposal's instructions run as the multisig account once approvals reach the quorum.
 * SetMultisigSpec only as the multisig.
 */
const INSTRUCTIONS = {
  RegisterMultisig: { account: AccountId, seed: SeedText, spec: MultisigSpecCodec },
  ProposeMultisig: { multisig: AccountId, instructions: InnerInstructions },
  ApproveMultisig: { multisig: AccountId, instructionsHash: Hash },
  CancelMultisig: { multisig: AccountId, instructionsHash: Hash },
  SetMultisigSpec: { multisig: AccountId, spec: MultisigSpecCodec },
};

/** SpecSet on registration and on every SetMultisigSpec. */
const EVENTS = {
  MultisigSpecSet: { account: AccountId, spec: MultisigSpecCodec },
  MultisigProposed: {
    multisig: AccountId,
    instructionsHash: Hash,
    proposer: AccountId,
    expiresAtMs: varuint,
  },
  MultisigApproved: { multisig: AccountId, instructionsHash: Hash, approver: AccountId, weight: varuint },
  MultisigExecuted: { multisig: AccountId, instructionsHash: Hash, result: MultisigResultCodec },
  MultisigCancelApproved: { multisig: AccountId, instructionsHash: Hash, approver: AccountId },
  MultisigCanceled: { multisig: AccountId, instructionsHash: Hash },
};

declare module '../../model/instructions.js' {
  interface InstructionVariants extends MultisigInstructionVariants {}
}
declare module '../../model/events.js' {
  interface DataEventVariants extends MultisigEventVariants {}
}
declare module '../../state/tables.js' {
  interface TableRows {
    multisigAccount: MultisigAccount;
    multisigProposal: MultisigProposal;
  }
  interface IndexNames {
    /** Multisig accounts by each signatory (member → multisigs). */
    multisigsByMember: unknown;
    /** Proposals by their multisig account (multisig → proposals). */
    proposalsByMultisig: unknown;
    /** Proposals stored as collecting signatures by multisig and proposer (`<multisig> <proposer>`). */
    openProposalsByProposer: unknown;
  }
}
type MultisigInstructionVariants = typeof INSTRUCTIONS;
type MultisigEventVariants = typeof EVENTS;

export const MULTISIG_TABLES = [
  tableDef<MultisigAccount>('multisigAccount', MultisigAccountCodec, {
    idOf: (v) => v.account,
    links: (_id, v) => [...v.spec.signatories.keys()].map((m) => ['multisigsByMember', m] as const),
    check: (id, v) => specProblem(id, v.spec),
  }),
  tableDef<MultisigProposal>('multisigProposal', MultisigProposalCodec, {
    idOf: (v) => proposalRowId(v.multisig, v.instructionsHash),
    links: (_id, v) =>
      v.status.kind === 'CollectingSignatures'
        ? [
            ['proposalsByMultisig', v.multisig],
            ['openProposalsByProposer', `${v.multisig} ${v.proposer}`],
          ]
        : [['proposalsByMultisig', v.multisig]],
    check: proposalProblem,
  }),
] as const;

export const multisigWire = declareModuleWire({
  name: 'multisig',
  instructions: INSTRUCTIONS,
  events: EVENTS,
  rejections: {
    multisig_not_found: 'no such multisig account',
    multisig_spec_invalid:
      'the multisig spec is unusable (no signatories, itself a signatory, quorum 0 or above the total weight, TTL out of range)',
    multisig_account_id_mismatch: 'the account id is not the one derived from the domain and seed',
    multisig_direct_signing: 'a multisig account cannot sign a transaction: it acts only through proposals',
    multisig_not_signatory: 'the authority is not a signatory of the multisig account',
    multisig_proposal_not_found: 'no such proposal',
    multisig_proposal_exists: 'a proposal of the same instructions is collecting signatures',
    multisig_proposal_expired: 'the proposal expired (block time at or past expires_at_ms)',
    multisig_proposal_not_pending: 'the proposal is finalized or canceled',
    multisig_already_approved: 'the signatory has approved (or asked to cancel) already',
    multisig_self_only: 'only the multisig account itself (an executed proposal) may do this',
    multisig_nesting_too_deep: 'proposals execute inside proposals deeper than the limit',
    multisig_member_in_use: 'the account is a signatory of a multisig account',
    multisig_instructions_invalid: 'a proposal needs 1..64 instructions',
    multisig_proposals_full:
      'the proposer has 64 live proposals on this multisig (collecting signatures, not expired)',
  },
  weights: {
    RegisterMultisig: sized(60, 0.1),
    // Stores the proposal (hashes its instructions); + the nested batch's weight (it may run at once,
    // and the executor charges each of its instructions as it runs).
    ProposeMultisig: {
      ...sized(60, 0.1),
      nested: '+ Σ weight(nested)',
      batch: (ins: Instruction) =>
        ins.kind === 'ProposeMultisig' ? innerInstructions(ins.instructions) : [],
    },
    // + the proposal's batch when the approval completes the quorum (charged as it runs).
    ApproveMultisig: {
      ...row(60),
      nested: '+ Σ weight(proposal) when it executes (counted by the executor)',
    },
    CancelMultisig: row(60),
    SetMultisigSpec: sized(60, 0.1),
  },
  schemaTypes: [MultisigAccountCodec, MultisigProposalCodec],
  tables: MULTISIG_TABLES as unknown as readonly TableDef<never>[],
  docs: 'docs/multisig.md',
});
