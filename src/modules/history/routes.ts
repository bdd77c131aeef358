// The transaction history family:
//
//   GET  /v1/transactions/history                       signed app request REQUIRED (§1.2): the caller's
//                                                       transactions (authority, or named by an instruction)
//   GET  /v1/accounts/{id}/transactions                 public, one account (the older route, same items + more)
//   POST /v1/accounts/{id}/transactions/query           the same with its parameters in a JSON body
//   GET  /v1/assets/definitions/{id}/transactions       public, one asset definition
//   POST /v1/assets/definitions/{id}/transactions/query
//
// Every answer is `{items, total, next_cursor?}`, newest first, read from the commit-time indexes
// (pipeline/index-writes.ts), never from a scan of the chain: one pass over the id's index range (page.ts)
// and the page's own blocks. Filters: status, from_ms / to_ms (block time), kind, and asset_id on the
// caller's history. Pagination: limit / offset, and the opaque cursor (cursor.ts).

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import type { RouteFamily } from '../../gateway/family.js';
import { accountParam, definitionParam, queryIds } from '../../gateway/id-resolver.js';
import { LIST_QUERY_BODY_BYTES_MAX } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { JSON_OR_CODEC } from '../../gateway/routes/app-lists.js';
import { IdParams } from '../../gateway/routes/app-params.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { parseAssetId } from '../../model/ids.js';
import { renderPage } from './items.js';
import type { PageRequest } from './page.js';
import { selectPage } from './page.js';
import {
  assetFilterOf,
  callerHistoryQuerystring,
  type HistoryInput,
  HistoryQueryBody,
  HistoryQuerystring,
  pageRequestOf,
} from './params.js';
import type { HistoryIndex, HistoryPort } from './port.js';
import { HistoryPageView } from './views.js';

export interface HistoryFamilyOptions {
  /** Signed requests of /v1/transactions/history (`history.request_max_age_ms`, `history.nonces_max`). */
  signedRequests: SignedRequests;
  /** `history.scan_entries_max`: index entries one request may read. */
  scanEntriesMax: number;
}

const SIGNED_NOTE =
  'Needs a signed app request (x-ledger-account, -signature, -timestamp-ms, -nonce): 401 signature_missing ' +
  'without one. Lists the transactions whose authority is the signing account or whose instructions name it.';
const FILTER_NOTE =
  'Newest first, from the commit-time index. Filters: status (ok | rejected | all), from_ms / to_ms (block ' +
  'time, inclusive), kind (an instruction kind). Pages: limit / offset, or cursor = the previous ' +
  "answer's next_cursor (transactions committed meanwhile never shift a cursor walk).";

interface Target {
  index: HistoryIndex;
  id: string;
  /** Whether the id names something in the committed state (undefined: no 404 check). */
  exists?: () => boolean;
}

/**
 * An unregistered account or definition keeps its history: 404 only when the id is unknown AND its index
 * is empty (as the account reads of src/accounts/ have it).
 */
async function checkKnown(port: HistoryPort, t: Target): Promise<void> {
  if (t.exists === undefined || t.exists()) return;
  for (const _ of await port.entries(t.index, t.id)) return;
  throw gatewayError('not_found', { [t.index === 'account' ? 'account' : 'asset_definition']: t.id });
}

async function answer(
  d: RouteDeps,
  port: HistoryPort,
  opts: HistoryFamilyOptions,
  req: FastifyRequest,
  reply: FastifyReply,
  target: Target,
  page: PageRequest,
  caller?: string,
) {
  await checkKnown(port, target);
  const entries = await port.entries(target.index, target.id);
  // On the caller's history filtered by an asset of another account: that asset's entries the caller sees.
  const visible =
    caller === undefined
      ? undefined
      : (e: { height: number; index: number }) => port.involves(caller, e.height, e.index);
  const selected = await selectPage(entries, page, opts.scanEntriesMax, visible);
  return respond(d.schema, req, reply, HistoryPageView, await renderPage(port, selected));
}

function publicRoutes(
  d: RouteDeps,
  port: HistoryPort,
  opts: HistoryFamilyOptions,
  base: string,
  noun: string,
  target: (text: string) => Target | Promise<Target>,
): RouteDef[] {
  const common = {
    tags: ['transactions'],
    visibility: 'public' as const,
    formats: JSON_OR_CODEC,
    errorStatuses: [404, 422],
    description: FILTER_NOTE,
  };
  const run = async (req: FastifyRequest, reply: FastifyReply, id: string, q: HistoryInput) => {
    const t = await target(id);
    return answer(d, port, opts, req, reply, t, pageRequestOf(q, d.limits));
  };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      url: `${base}/:id/transactions`,
      operationId: `list${noun}Transactions`,
      summary: `The committed transactions of one ${noun === 'Account' ? 'account' : 'asset definition'}, newest first`,
      schema: {
        params: IdParams,
        querystring: HistoryQuerystring,
        response: { 200: viewSchema(HistoryPageView) },
      },
      handler: (req, reply) => run(req, reply, req.params.id, req.query),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      url: `${base}/:id/transactions/query`,
      operationId: `query${noun}Transactions`,
      summary: `The same as GET ${base}/{id}/transactions, its parameters in a JSON body`,
      bodyBytesMax: d.limits.listQueryBodyBytesMax ?? LIST_QUERY_BODY_BYTES_MAX,
      schema: { params: IdParams, body: HistoryQueryBody, response: { 200: viewSchema(HistoryPageView) } },
      handler: (req, reply) => run(req, reply, req.params.id, { ...req.body }),
    }),
  ];
}

function callerRoute(d: RouteDeps, port: HistoryPort, opts: HistoryFamilyOptions): RouteDef {
  return defineRoute({
    method: 'GET',
    url: '/v1/transactions/history',
    operationId: 'listTransactionHistory',
    summary: 'Committed transactions visible to the signing account, newest first',
    description: `${SIGNED_NOTE} ${FILTER_NOTE} asset_id: only transactions touching that asset.`,
    tags: ['transactions'],
    visibility: 'public',
    formats: JSON_OR_CODEC,
    errorStatuses: [422],
    auth: opts.signedRequests,
    schema: { querystring: callerHistoryQuerystring(), response: { 200: viewSchema(HistoryPageView) } },
    handler: async (req, reply) => {
      const caller = opts.signedRequests.account(req);
      if (caller === undefined) throw gatewayError('signature_missing');
      const page = pageRequestOf(req.query, d.limits);
      // The asset's definition and account parts may be names in place of ids (gateway/id-resolver.ts).
      const { asset_id } = await queryIds(d.ports.state, d.ports.chain, req.query, { asset_id: 'asset' });
      const asset = assetFilterOf(asset_id);
      if (asset === undefined)
        return answer(d, port, opts, req, reply, { index: 'account', id: caller }, page);
      // The caller's own asset: every transaction touching it names the caller (mint, burn, either side).
      const own = parseAssetId(asset)?.account === caller;
      return answer(d, port, opts, req, reply, { index: 'asset', id: asset }, page, own ? undefined : caller);
    },
  });
}

export function historyFamily(port: HistoryPort, d: RouteDeps, opts: HistoryFamilyOptions): RouteFamily {
  const account = (text: string): Target => {
    const id = accountParam(d.ports.state, text); // an id or a name (gateway/id-resolver.ts)
    return { index: 'account', id, exists: () => port.accountExists(id) };
  };
  const definition = async (text: string): Promise<Target> => {
    // An id or a name, judged at the tip's block time (gateway/id-resolver.ts).
    const id = await definitionParam(d.ports.state, d.ports.chain, text);
    return { index: 'definition', id, exists: () => port.definitionExists(id) };
  };
  return {
    name: 'history',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 420,
    routes: () => [
      callerRoute(d, port, opts),
      ...publicRoutes(d, port, opts, '/v1/accounts', 'Account', account),
      ...publicRoutes(d, port, opts, '/v1/assets/definitions', 'AssetDefinition', definition),
    ],
  };
}
