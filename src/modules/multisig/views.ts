// Answer types of the multisig routes, defined once as codec types: the JSON
// answer, the codec answer and the OpenAPI schema come from the same definition (gateway/view.ts).

import { map, option, seq, struct } from '../../codec/compound.js';
import { bool, string, u8, u16, varuint } from '../../codec/primitives.js';
import { AccountId } from '../../model/ids.js';
import { Hash } from '../../model/keys.js';
import { MULTISIG_SIGNATORIES_MAX, MultisigResultCodec } from './model.js';
import { InnerInstructions, InstructionListCodec } from './proposal-row.js';

/** Most items of one list page (the list routes' cap, `gateway.list_limit_max`, is at most this). */
export const PAGE_ITEMS_MAX = 500;

export const MultisigSpecView = struct('MultisigSpecAnswer', {
  multisigAccountId: AccountId,
  signatories: map(AccountId, u8, MULTISIG_SIGNATORIES_MAX),
  quorum: u16,
  transactionTtlMs: varuint,
});

const Accounts = seq(AccountId, MULTISIG_SIGNATORIES_MAX);

export const MultisigProposalView = struct('MultisigProposalAnswer', {
  /** The hex of the instructions hash. */
  proposalId: Hash,
  multisigAccountId: AccountId,
  instructionsHash: Hash,
  instructions: InnerInstructions,
  proposer: AccountId,
  proposedAtMs: varuint,
  expiresAtMs: varuint,
  approvals: Accounts,
  /** Weight of the approvals under the current spec, and the quorum it must reach. */
  approvalWeight: varuint,
  quorum: u16,
  cancelApprovals: Accounts,
  /** COLLECTING_SIGNATURES | FINALIZED | CANCELED | EXPIRED, at the committed tip's block time. */
  status: string(32),
  executedAtHeight: option(varuint),
  result: option(MultisigResultCodec),
  terminalAtMs: option(varuint),
});

export const MultisigProposalListView = struct('MultisigProposalList', {
  items: seq(MultisigProposalView, PAGE_ITEMS_MAX),
  total: varuint,
});

export const MultisigApprovalItemView = struct('MultisigApprovalItem', {
  multisigAccountId: AccountId,
  spec: MultisigSpecView,
  proposalId: Hash,
  instructionsHash: Hash,
  proposal: MultisigProposalView,
  /** The instruction kind of a one-instruction batch, else "Batch". */
  operationType: string(64),
  status: string(32),
  /** Whether the signed caller is a signatory that can still approve it. */
  requiresMySignature: bool,
  terminalAtMs: option(varuint),
});

export const MultisigApprovalListView = struct('MultisigApprovalList', {
  items: seq(MultisigApprovalItemView, PAGE_ITEMS_MAX),
  nextCursor: option(string(512)),
});

/** Both steps of a detached-signing write. */
export const MultisigWriteView = struct('MultisigWriteAnswer', {
  ok: bool,
  resolvedMultisigAccountId: AccountId,
  /** False on the first call (sign `signing_message_b64`), true once the transaction was admitted. */
  submitted: bool,
  proposalId: Hash,
  instructionsHash: Hash,
  /** The transaction's authority: the signer. */
  authority: AccountId,
  creationTimeMs: varuint,
  /** Base64 of the 32-byte payload hash to sign with the signer's key (first call only). */
  signingMessageB64: option(string(64)),
  /** The instructions of the transaction to sign, in their JSON form. */
  txInstructions: InstructionListCodec,
  txHashHex: option(string(64)),
});

export const MultisigOnboardView = struct('MultisigOnboardAnswer', {
  ok: bool,
  multisigAccountId: AccountId,
  submitted: bool,
  authority: AccountId,
  creationTimeMs: varuint,
  signingMessageB64: option(string(64)),
  txInstructions: InstructionListCodec,
  txHashHex: option(string(64)),
});
