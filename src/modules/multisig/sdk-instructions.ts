// Builders of the multisig instructions (docs/multisig.md), spread into the SDK's `instructions`
// (src/sdk/instructions.ts, through sdk.ts).
// The multisig account id is derived from its domain and seed (`multisigAccountId`); the proposal id is
// the hash of the proposed instruction list (`multisigProposalId`). The ledger checks every rule.

import type { Instruction } from '../../model/instructions.js';
import { MULTISIG_TTL_MS_DEFAULT, type MultisigSpec, multisigAccountId } from './model.js';
import { instructionsHash } from './proposal-row.js';

export interface MultisigSpecInput {
  /** Signatory account → weight 0..255. */
  signatories: Record<string, number> | ReadonlyMap<string, number>;
  quorum: number;
  /** How long a proposal collects approvals (block time); default one hour. */
  transactionTtlMs?: number;
}

export function multisigSpecOf(s: MultisigSpecInput): MultisigSpec {
  const entries = s.signatories instanceof Map ? [...s.signatories] : Object.entries(s.signatories);
  return {
    signatories: new Map(entries as [string, number][]),
    quorum: s.quorum,
    transactionTtlMs: s.transactionTtlMs ?? MULTISIG_TTL_MS_DEFAULT,
  };
}

/** The proposal id (= instructions hash, lower-case hex) of a batch. */
export function multisigProposalId(instructions: readonly Instruction[]): string {
  return instructionsHash(instructions);
}

export { multisigAccountId };

export const multisigInstructions = {
  /** Creates the multisig account `multisigAccountId(domain, seed)` with its spec. */
  registerMultisig: (domain: string, seed: string, spec: MultisigSpecInput): Instruction => ({
    kind: 'RegisterMultisig',
    account: multisigAccountId(domain, seed),
    seed,
    spec: multisigSpecOf(spec),
  }),
  proposeMultisig: (multisig: string, instructions: Instruction[]): Instruction => ({
    kind: 'ProposeMultisig',
    multisig,
    instructions,
  }),
  approveMultisig: (multisig: string, proposalId: string): Instruction => ({
    kind: 'ApproveMultisig',
    multisig,
    instructionsHash: proposalId,
  }),
  cancelMultisig: (multisig: string, proposalId: string): Instruction => ({
    kind: 'CancelMultisig',
    multisig,
    instructionsHash: proposalId,
  }),
  /** Only valid inside a proposal of `multisig` itself. */
  setMultisigSpec: (multisig: string, spec: MultisigSpecInput): Instruction => ({
    kind: 'SetMultisigSpec',
    multisig,
    spec: multisigSpecOf(spec),
  }),
} as const;
