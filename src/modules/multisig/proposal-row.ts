// A multisig proposal (world-state table 0x15; docs/multisig.md): a batch of instructions to run as the
// multisig account once approval weight reaches the quorum. Keyed by `<multisig>#<instructions hash>`
// (model.ts proposalRowId): one live proposal per batch; a terminal one (finalized, canceled,
// expired) is replaced when the same batch is proposed again.

import type { Codec, Infer } from '../../codec/codec.js';
import { lazy, option, seq, struct } from '../../codec/compound.js';
import { encode } from '../../codec/frame.js';
import { varuint } from '../../codec/primitives.js';
import { hash, hashToHex } from '../../crypto/hash.js';
import { AccountId } from '../../model/ids.js';
import { type Instruction, InstructionCodec } from '../../model/instructions.js';
import { Hash } from '../../model/keys.js';
import {
  MULTISIG_INSTRUCTIONS_MAX,
  MULTISIG_SIGNATORIES_MAX,
  MultisigResultCodec,
  MultisigStatusCodec,
} from './model.js';

/**
 * An instruction inside a proposal: the Instruction type itself (recursive, hence lazy). Typed by its
 * kind only here, because the type of InstructionCodec depends on the variants declared with this one;
 * `innerInstructions` gives the full type back.
 */
export interface InnerInstruction {
  readonly kind: string;
}
export const InnerInstructions = seq(
  lazy<InnerInstruction>('ProposalInstruction', (): Codec<InnerInstruction> => InstructionCodec as never),
  MULTISIG_INSTRUCTIONS_MAX,
);

/** The instructions of a proposal, at their full type. */
export function innerInstructions(list: readonly InnerInstruction[]): Instruction[] {
  return list as Instruction[];
}

/** The codec of an instruction list (what `instructions_hash` is taken over). */
export const InstructionListCodec = seq(InstructionCodec, MULTISIG_INSTRUCTIONS_MAX);

/** Approvers (and cancel approvers): sorted, no duplicates. */
const Approvers = seq(AccountId, MULTISIG_SIGNATORIES_MAX);

export const MultisigProposalCodec = struct('MultisigProposal', {
  multisig: AccountId,
  instructionsHash: Hash,
  instructions: InnerInstructions,
  proposer: AccountId,
  proposedAtMs: varuint,
  expiresAtMs: varuint,
  approvals: Approvers,
  /** Signatories that asked for the proposal to be canceled (CancelMultisig); quorum cancels it. */
  cancelApprovals: Approvers,
  status: MultisigStatusCodec,
  executedAtHeight: option(varuint),
  result: option(MultisigResultCodec),
  /** Block time at which it was finalized or canceled. */
  terminalAtMs: option(varuint),
});
export type MultisigProposal = Infer<typeof MultisigProposalCodec>;

/** The hash approvals name: over the canonical encoding of the instruction list. */
export function instructionsHash(instructions: readonly Instruction[]): string {
  return hashToHex(hash(encode(InstructionListCodec, [...instructions])));
}

/** Why a proposal row is inconsistent (load check), or undefined. */
export function proposalProblem(id: string, p: MultisigProposal): string | undefined {
  if (id !== `${p.multisig}#${p.instructionsHash}`) return 'id does not match multisig#instructions_hash';
  for (const list of [p.approvals, p.cancelApprovals])
    for (let i = 1; i < list.length; i++)
      if (list[i - 1]! >= list[i]!) return 'approvers not strictly sorted';
  if (instructionsHash(innerInstructions(p.instructions)) !== p.instructionsHash)
    return 'instructions_hash is not the hash of the instructions';
  if ((p.status.kind === 'Finalized') !== (p.executedAtHeight !== undefined))
    return 'execution record mismatch';
  if ((p.executedAtHeight === undefined) !== (p.result === undefined)) return 'result without execution';
  const terminal = p.status.kind === 'Finalized' || p.status.kind === 'Canceled';
  if (terminal !== (p.terminalAtMs !== undefined)) return 'terminal time mismatch';
  if (p.expiresAtMs < p.proposedAtMs) return 'expires before it was proposed';
  return undefined;
}
