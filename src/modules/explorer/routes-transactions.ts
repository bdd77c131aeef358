// Explorer transactions: committed transactions newest first with the list filters
// (`authority`, `block`, `status`, `asset_id`; filters.ts), the latest few unpaged, and one transaction
// by hash with its rejection reason. Lists scan the block store (scan.ts states the cost).

import { gatewayError } from '../../gateway/errors.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { HashParams, pathHash } from '../../gateway/routes/app-params.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { committedTransaction, latestRoute, scanListRoute, scanRange } from './chain-routes.js';
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

export function transactionPage(x: ExplorerContext, f: TransactionFilter, offset: number, limit: number) {
  return scanNewestFirst(
    x.port.chain,
    {
      ...scanRange(x.port.chain.height(), f.block),
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
  return scanListRoute(x, {
    url: '/v1/explorer/transactions',
    operationId: 'explorerListTransactions',
    summary: 'Committed transactions, newest first, with filters: {pagination, items}',
    description:
      'Filters: authority, block, status (Committed|Rejected), asset_id (an asset or an asset definition). ' +
      'Read by scanning blocks from the tip (or the one `block`), under `query.work_units_max`: a long ' +
      'chain answers 422 query_budget_exceeded; narrow it with `block`.',
    querystring: TransactionFilterQuery,
    view: ExplorerTransactionListView,
    parse: parseTransactionFilter,
    page: transactionPage,
  });
}

function newestRoute(x: ExplorerContext): RouteDef {
  return latestRoute(x, {
    url: '/v1/explorer/transactions/latest',
    operationId: 'explorerLatestTransactions',
    summary: `The newest committed transactions, unpaged: {items} (limit ${LATEST_LIMIT_DEFAULT}, at most ${LATEST_LIMIT_MAX})`,
    view: ExplorerLatestTransactionsView,
    places: transactionPlaces,
    build: (b) => (p) => transactionSummary(b, p.tx)!,
  });
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
      const at = await committedTransaction(chain, hash);
      const detail = at === undefined ? undefined : transactionDetail(at.block, at.index);
      if (detail === undefined) throw gatewayError('not_found', { hash: req.params.hash.toLowerCase() });
      return respond(x.deps.schema, req, reply, ExplorerTransactionDetailView, detail);
    },
  });
}

export function transactionRoutes(x: ExplorerContext): RouteDef[] {
  return [listRoute(x), newestRoute(x), oneRoute(x)];
}
