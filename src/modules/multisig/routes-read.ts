// Public reads of multisig state: ledger state at the committed height, no
// signature needed (signatories, weights and proposals are ledger state any reader of blocks sees).
//
//   POST /v1/multisig/spec            {selector}                          → {multisig_account_id, signatories, quorum, transaction_ttl_ms}
//   POST /v1/multisig/proposals/list  {selector, status[]?, limit?, offset?} → {items, total}  (pending unless status given)
//   POST /v1/multisig/proposals/get   {selector, proposal_id | instructions_hash} → one proposal

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { parsePage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { MultisigPort } from './port.js';
import { proposalAnswer, STATUS_NAMES, specAnswer, statusText } from './render.js';
import { PROPOSAL_FIELDS, proposalIdOf, resolveMultisig, SELECTOR_FIELDS } from './request.js';
import { MultisigProposalListView, MultisigProposalView, MultisigSpecView } from './views.js';

const NOTE =
  'Ledger state at the committed height; no signature needed. The multisig is named by ' +
  'multisig_account_id or multisig_account_alias (exactly one). Status is judged at the tip block time.';

export const STATUS_FILTER = Type.Array(Type.Union(STATUS_NAMES.map((s) => Type.Literal(s))), {
  minItems: 1,
  maxItems: STATUS_NAMES.length,
});

export function post(url: string, operationId: string, summary: string, description = NOTE) {
  return {
    method: 'POST' as const,
    url,
    operationId,
    summary,
    description,
    tags: ['multisig'],
    visibility: 'public' as const,
    errorStatuses: [404],
  };
}

function specRoute(d: RouteDeps, port: MultisigPort): RouteDef {
  return defineRoute({
    ...post('/v1/multisig/spec', 'getMultisigSpec', 'Signatories, weights, quorum and proposal TTL'),
    readsOnly: true,
    schema: {
      body: Type.Object(SELECTOR_FIELDS, { additionalProperties: false }),
      response: { 200: viewSchema(MultisigSpecView) },
    },
    handler: (req, reply) =>
      respond(d.schema, req, reply, MultisigSpecView, specAnswer(resolveMultisig(d, port, req.body))),
  });
}

function listRoute(d: RouteDeps, port: MultisigPort): RouteDef {
  return defineRoute({
    ...post('/v1/multisig/proposals/list', 'listMultisigProposals', 'Proposals of one multisig account'),
    readsOnly: true,
    schema: {
      body: Type.Object(
        {
          ...SELECTOR_FIELDS,
          status: Type.Optional(STATUS_FILTER),
          limit: Type.Optional(Type.Integer()),
          offset: Type.Optional(Type.Integer()),
        },
        { additionalProperties: false },
      ),
      response: { 200: viewSchema(MultisigProposalListView) },
    },
    handler: async (req, reply) => {
      const b = req.body;
      const { limit, offset } = parsePage({ limit: b.limit, offset: b.offset }, d.limits);
      const m = resolveMultisig(d, port, b);
      const now = await port.tipTimeMs();
      const wanted = new Set<string>(b.status ?? ['COLLECTING_SIGNATURES']);
      const all = port.proposalsOf(m.account).filter((p) => wanted.has(statusText(p, now)));
      const items = all.slice(offset, offset + limit).map((p) => proposalAnswer(m, p, now));
      return respond(d.schema, req, reply, MultisigProposalListView, { items, total: all.length });
    },
  });
}

function getRoute(d: RouteDeps, port: MultisigPort): RouteDef {
  return defineRoute({
    ...post('/v1/multisig/proposals/get', 'getMultisigProposal', 'One proposal with its status'),
    readsOnly: true,
    schema: {
      body: Type.Object({ ...SELECTOR_FIELDS, ...PROPOSAL_FIELDS }, { additionalProperties: false }),
      response: { 200: viewSchema(MultisigProposalView) },
    },
    handler: async (req, reply) => {
      const m = resolveMultisig(d, port, req.body);
      const id = proposalIdOf(req.body);
      const p = port.proposal(m.account, id);
      if (p === undefined) throw gatewayError('not_found', { proposal_id: id });
      return respond(
        d.schema,
        req,
        reply,
        MultisigProposalView,
        proposalAnswer(m, p, await port.tipTimeMs()),
      );
    },
  });
}

export function multisigReadRoutes(d: RouteDeps, port: MultisigPort): RouteDef[] {
  return [specRoute(d, port), listRoute(d, port), getRoute(d, port)];
}
