// The signed caller's approvals inbox (§1.2): proposals of every multisig account the
// signing account is a signatory of (index member → multisigs, then multisig → proposals), sorted by
// (multisig account, proposal id); the cursor is the last item's position, opaque to clients.
//
//   POST /v1/multisig/approvals/list  {status[]?, operation_type[]?, requires_my_signature?, cursor?, limit?}
//                                     → {items, next_cursor?}
//   POST /v1/multisig/approvals/get   {selector, proposal_id}  → one item (404 unless the caller is a signatory)

import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { parsePage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { type MultisigAccount, proposalRowId } from './model.js';
import type { MultisigPort } from './port.js';
import type { MultisigProposal } from './proposal-row.js';
import { type ApprovalItem, approvalItem } from './render.js';
import { PROPOSAL_FIELDS, proposalIdOf, resolveMultisig, SELECTOR_FIELDS } from './request.js';
import { post, STATUS_FILTER } from './routes-read.js';
import { MultisigApprovalItemView, MultisigApprovalListView } from './views.js';

const NOTE =
  'Needs a signed app request (x-ledger-account, -signature, -timestamp-ms, -nonce): 401 signature_missing ' +
  'without one. Lists proposals of the multisig accounts the signing account is a signatory of.';

const CURSOR_CHARS_MAX = 512;

const ListBody = Type.Object(
  {
    status: Type.Optional(STATUS_FILTER),
    operation_type: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 64 })),
    requires_my_signature: Type.Optional(Type.Boolean()),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: CURSOR_CHARS_MAX })),
    limit: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

function callerOf(auth: SignedRequests, req: FastifyRequest): string {
  const caller = auth.account(req);
  if (caller === undefined) throw gatewayError('signature_missing');
  return caller;
}

/** The row id after which a page starts: base64url of `<multisig>#<proposal id>`. */
function decodeCursor(text: string): string {
  const id = Buffer.from(text, 'base64url').toString('utf8');
  if (!/^.+@.+#[0-9a-f]{64}$/.test(id) || Buffer.from(id).toString('base64url') !== text)
    throw gatewayError('invalid_pagination', { field: 'cursor', reason: 'not a cursor of this list' });
  return id;
}

/** Every proposal of the caller's multisig accounts, in row id order (the cursor's order). */
function visibleRows(port: MultisigPort, caller: string) {
  const rows: { m: MultisigAccount; p: MultisigProposal; rowId: string }[] = [];
  for (const id of port.multisigsOf(caller)) {
    const m = port.multisig(id);
    if (m === undefined) continue;
    for (const p of port.proposalsOf(id)) rows.push({ m, p, rowId: proposalRowId(id, p.instructionsHash) });
  }
  return rows.sort((a, b) => (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0));
}

function listRoute(d: RouteDeps, port: MultisigPort, auth: SignedRequests): RouteDef {
  return defineRoute({
    ...post(
      '/v1/multisig/approvals/list',
      'listMultisigApprovals',
      'Proposals visible to the signed caller',
      NOTE,
    ),
    auth,
    schema: { body: ListBody, response: { 200: viewSchema(MultisigApprovalListView) } },
    handler: async (req, reply) => {
      const caller = callerOf(auth, req);
      const b = req.body;
      const { limit } = parsePage({ limit: b.limit }, d.limits);
      const after = b.cursor === undefined ? undefined : decodeCursor(b.cursor);
      const now = await port.tipTimeMs();
      const keep = (it: ApprovalItem) =>
        (b.status === undefined || (b.status as readonly string[]).includes(it.status)) &&
        (b.operation_type === undefined || b.operation_type.includes(it.operationType)) &&
        (b.requires_my_signature === undefined || b.requires_my_signature === it.requiresMySignature);
      const items: ApprovalItem[] = [];
      let more = false;
      for (const { m, p, rowId } of visibleRows(port, caller)) {
        if (after !== undefined && rowId <= after) continue;
        const item = approvalItem(m, p, caller, now);
        if (!keep(item)) continue;
        if (items.length === limit) {
          more = true;
          break;
        }
        items.push(item);
      }
      const last = items.at(-1);
      const nextCursor =
        more && last !== undefined
          ? Buffer.from(proposalRowId(last.multisigAccountId, last.proposalId)).toString('base64url')
          : undefined;
      const value = nextCursor === undefined ? { items } : { items, nextCursor };
      return respond(d.schema, req, reply, MultisigApprovalListView, value);
    },
  });
}

function getRoute(d: RouteDeps, port: MultisigPort, auth: SignedRequests): RouteDef {
  return defineRoute({
    ...post(
      '/v1/multisig/approvals/get',
      'getMultisigApproval',
      'One proposal visible to the signed caller',
      NOTE,
    ),
    auth,
    schema: {
      body: Type.Object({ ...SELECTOR_FIELDS, ...PROPOSAL_FIELDS }, { additionalProperties: false }),
      response: { 200: viewSchema(MultisigApprovalItemView) },
    },
    handler: async (req, reply) => {
      const caller = callerOf(auth, req);
      const m = resolveMultisig(d, port, req.body);
      const id = proposalIdOf(req.body);
      const p = port.proposal(m.account, id);
      // Invisible unless the caller is a signatory: the same 404 as an unknown proposal.
      if (p === undefined || !m.spec.signatories.has(caller))
        throw gatewayError('not_found', { proposal_id: id });
      return respond(
        d.schema,
        req,
        reply,
        MultisigApprovalItemView,
        approvalItem(m, p, caller, await port.tipTimeMs()),
      );
    },
  });
}

export function multisigApprovalRoutes(d: RouteDeps, port: MultisigPort, auth: SignedRequests): RouteDef[] {
  return [listRoute(d, port, auth), getRoute(d, port, auth)];
}
