// Explorer transactions (app-families.md §2): committed transactions newest first with the list filters
// (`authority`, `block`, `status`, `asset_id`; filters.ts), the latest few unpaged, and one transaction
// by hash with its rejection reason. Lists scan the block store (scan.ts states the cost).

import { Type } from 'typebox';
import { gatewayError } from '../gateway/errors.js';
import { explorerPagination, parseExplorerPage } from '../gateway/list.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import { HashParams, pathHash } from '../gateway/routes/app-params.js';
import { respond, viewSchema } from '../gateway/view.js';
import {
  common,
  type ExplorerContext,
  LATEST_LIMIT_DEFAULT,
  LATEST_LIMIT_MAX,
  workUnitsMax,
} from './context.js';
import {
  parseTransactionFilter,
  type TransactionFilter,
  TransactionFilterQuery,
  transactionMatches,
} from './filters.js';
import { transactionDetail, transactionSummary } from './items.js';
import { scanNewestFirst, transactionPlaces } from './scan.js';
import { ExplorerTransactionDetailView, ExplorerTransactionListView } from './views.js';
import { ExplorerLatestTransactionsView } from './views-more.js';

export const LatestQuery = Type.Object({
  limit: Type.Optional(
    Type.String({ maxLength: 20, description: `1..${LATEST_LIMIT_MAX}, default ${LATEST_LIMIT_DEFAULT}` }),
  ),
});

/** `limit` of a latest-N view: 1..LATEST_LIMIT_MAX, default LATEST_LIMIT_DEFAULT; else 400 invalid_pagination. */
export function parseLatestLimit(text: string | undefined): number {
  if (text === undefined) return LATEST_LIMIT_DEFAULT;
  const n = /^[1-9][0-9]{0,3}$/.test(text) ? Number(text) : 0;
  if (n < 1 || n > LATEST_LIMIT_MAX)
    throw gatewayError('invalid_pagination', {
      field: 'limit',
      value: text.slice(0, 32),
      reason: `expected an integer from 1 to ${LATEST_LIMIT_MAX}`,
    });
  return n;
}

export function transactionPage(x: ExplorerContext, f: TransactionFilter, offset: number, limit: number) {
  const tip = x.port.chain.height();
  const from = f.block === undefined ? tip : Math.min(f.block, tip);
  const to = f.block === undefined ? 1 : f.block;
  return scanNewestFirst(
    x.port.chain,
    {
      from,
      to,
      offset,
      limit,
      places: transactionPlaces,
      keep: (b, p) => transactionMatches(f, b, p.tx),
      build: (b, p) => transactionSummary(b, p.tx)!,
    },
    workUnitsMax(x),
  );
}

function listRoute(x: ExplorerContext): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/transactions',
    operationId: 'explorerListTransactions',
    summary: 'Committed transactions, newest first, with filters: {pagination, items}',
    description:
      'Filters: authority, block, status (Committed|Rejected), asset_id (an asset or an asset definition). ' +
      'Read by scanning blocks from the tip (or the one `block`), under `query.work_units_max`: a long ' +
      'chain answers 422 query_budget_exceeded; narrow it with `block`.',
    errorStatuses: [422],
    schema: {
      querystring: TransactionFilterQuery,
      response: { 200: viewSchema(ExplorerTransactionListView) },
    },
    handler: async (req, reply) => {
      const p = parseExplorerPage(req.query, x.deps.limits);
      const f = parseTransactionFilter(req.query);
      const r = await transactionPage(x, f, p.offset, p.perPage);
      return respond(x.deps.schema, req, reply, ExplorerTransactionListView, {
        pagination: explorerPagination(p, r.total),
        items: r.items,
      });
    },
  });
}

function latestRoute(x: ExplorerContext): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/transactions/latest',
    operationId: 'explorerLatestTransactions',
    summary: `The newest committed transactions, unpaged: {items} (limit ${LATEST_LIMIT_DEFAULT}, at most ${LATEST_LIMIT_MAX})`,
    schema: { querystring: LatestQuery, response: { 200: viewSchema(ExplorerLatestTransactionsView) } },
    handler: async (req, reply) => {
      const limit = parseLatestLimit(req.query.limit);
      const items = await latestTransactions(x, limit);
      return respond(x.deps.schema, req, reply, ExplorerLatestTransactionsView, { items });
    },
  });
}

/** The newest `limit` transactions: reads blocks down from the tip only until it has them. */
async function latestTransactions(x: ExplorerContext, limit: number) {
  const items = [];
  for (let h = x.port.chain.height(); h >= 1 && items.length < limit; h--) {
    const b = await x.port.chain.block(h);
    if (b === undefined) continue;
    for (let i = b.transactions.length - 1; i >= 0 && items.length < limit; i--)
      items.push(transactionSummary(b, i)!);
  }
  return items;
}

function oneRoute(x: ExplorerContext): RouteDef {
  const { chain } = x.port;
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/transactions/:hash',
    operationId: 'explorerGetTransaction',
    summary: 'One committed transaction by hash, decoded, with its status and rejection reason',
    errorStatuses: [404],
    schema: { params: HashParams, response: { 200: viewSchema(ExplorerTransactionDetailView) } },
    handler: async (req, reply) => {
      const hash = pathHash(req.params.hash);
      const at = chain.locate(hash);
      const block = at === undefined ? undefined : await chain.block(at.height);
      const detail = at === undefined || block === undefined ? undefined : transactionDetail(block, at.index);
      if (detail === undefined) throw gatewayError('not_found', { hash: req.params.hash.toLowerCase() });
      return respond(x.deps.schema, req, reply, ExplorerTransactionDetailView, detail);
    },
  });
}

export function transactionRoutes(x: ExplorerContext): RouteDef[] {
  return [listRoute(x), latestRoute(x), oneRoute(x)];
}
