// The multisig module's SDK functions (docs/multisig.md): reads over the node's routes (routes-*.ts),
// decoded with the node's own view codecs, and the instruction builders (sdk-instructions.ts, spread
// into the SDK's `instructions`). The approvals inbox needs a signed request (the caller's account and
// signer). Writes are ordinary transactions built with `instructions.proposeMultisig` etc.; the two-step
// routes exist for clients that cannot build transactions themselves. src/sdk/index.ts re-exports these
// names.

import type { Signer } from '../../crypto/signer.js';
import { canonicalAccountId } from '../../model/ids.js';
import { postJson } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import { signRequest } from '../../sdk/signed-request.js';
import { multisigAccountId, multisigProposalId } from './sdk-instructions.js';
import {
  type MultisigApprovalItemView,
  MultisigApprovalListView,
  MultisigProposalListView,
  MultisigProposalView,
  MultisigSpecView,
} from './views.js';

export {
  type MultisigSpecInput,
  multisigAccountId,
  multisigInstructions,
  multisigProposalId,
} from './sdk-instructions.js';

export type MultisigSpecAnswer = ReturnType<typeof MultisigSpecView.fromJson>;
export type MultisigProposalAnswer = ReturnType<typeof MultisigProposalView.fromJson>;
export type MultisigProposalList = ReturnType<typeof MultisigProposalListView.fromJson>;
export type MultisigApprovalList = ReturnType<typeof MultisigApprovalListView.fromJson>;
export type MultisigApprovalItem = ReturnType<typeof MultisigApprovalItemView.fromJson>;

/** A multisig account id (`<key>@<domain>`) or alias (`label@domain`). */
export type MultisigRef = string;
export type MultisigStatusName = 'COLLECTING_SIGNATURES' | 'FINALIZED' | 'CANCELED' | 'EXPIRED';

/** The selector of the routes: an alias when `ref` is no account id (its key part is no public key). */
function selector(ref: MultisigRef): Record<string, string> {
  return canonicalAccountId(ref) !== undefined
    ? { multisig_account_id: ref }
    : { multisig_account_alias: ref };
}

export function multisigSpec(client: { http: Http }, ref: MultisigRef) {
  return postJson(client.http, '/v1/multisig/spec', selector(ref), MultisigSpecView);
}

/** Proposals of one multisig; pending only unless `status` is given. */
export function multisigProposals(
  client: { http: Http },
  ref: MultisigRef,
  opts: { status?: MultisigStatusName[]; limit?: number; offset?: number } = {},
) {
  return postJson(
    client.http,
    '/v1/multisig/proposals/list',
    { ...selector(ref), ...opts },
    MultisigProposalListView,
  );
}

export function multisigProposal(client: { http: Http }, ref: MultisigRef, proposalId: string) {
  return postJson(
    client.http,
    '/v1/multisig/proposals/get',
    { ...selector(ref), proposal_id: proposalId },
    MultisigProposalView,
  );
}

export interface ApprovalsOptions {
  status?: MultisigStatusName[];
  operationType?: string[];
  requiresMySignature?: boolean;
  cursor?: string;
  limit?: number;
}

/** The signed caller's approvals inbox (one page; follow `nextCursor`). */
export function multisigApprovals(
  client: { http: Http },
  caller: { account: string; signer: Signer },
  o: ApprovalsOptions = {},
) {
  const path = '/v1/multisig/approvals/list';
  const body = {
    ...(o.status === undefined ? {} : { status: o.status }),
    ...(o.operationType === undefined ? {} : { operation_type: o.operationType }),
    ...(o.requiresMySignature === undefined ? {} : { requires_my_signature: o.requiresMySignature }),
    ...(o.cursor === undefined ? {} : { cursor: o.cursor }),
    ...(o.limit === undefined ? {} : { limit: o.limit }),
  };
  const headers = signRequest({ method: 'POST', url: path, body: JSON.stringify(body), ...caller });
  return postJson(client.http, path, body, MultisigApprovalListView, headers);
}

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const MULTISIG_SDK = {
  multisigSpec,
  multisigProposals,
  multisigProposal,
  multisigApprovals,
  multisigAccountId,
  multisigProposalId,
} as const;
