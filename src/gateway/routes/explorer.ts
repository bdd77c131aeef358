// Explorer views of the chain (gateway-interface.md "Application route families": /v1/explorer/*;
// reference-notes §12): blocks newest first, one block with its transactions and certificate summary,
// recent transactions newest first, one committed transaction by hash.
//
// Paging is `page` (1-based) and `per_page` (default EXPLORER_PER_PAGE_DEFAULT, at most the list cap);
// a page past the end is empty, not an error. The recent-transactions list scans only the newest
// EXPLORER_TX_WINDOW_BLOCKS blocks, so its cost is bounded whatever the chain length; `total_items` counts
// the transactions of that window. Older transactions are reached by hash or through an account.

import type { Block } from '../../model/block.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import { ExplorerQuerystring, explorerPagination, parseExplorerPage } from '../list.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewSchema } from '../view.js';
import {
  ExplorerBlockDetailView,
  ExplorerBlockListView,
  ExplorerTransactionDetailView,
  ExplorerTransactionListView,
} from '../views/explorer.js';
import { JSON_OR_CODEC } from './app-lists.js';
import { HashParams, HeightParams, pathHash, pathHeight } from './app-params.js';
import {
  blockDetail,
  blockSummary,
  newestFirst,
  transactionDetail,
  transactionSummary,
} from './explorer-items.js';

/** Blocks scanned by `GET /v1/explorer/transactions` (the ledger's block cache holds this many too). */
export const EXPLORER_TX_WINDOW_BLOCKS = 256;

async function blocksDown(d: RouteDeps, from: number, to: number): Promise<Block[]> {
  const out: Block[] = [];
  for (let h = from; h >= to; h--) {
    const b = await d.ports.chain.block(h);
    if (b !== undefined) out.push(b);
  }
  return out;
}

/** Transactions of the newest window, newest first (descending height, then descending index). */
async function recentTransactions(d: RouteDeps, offset: number, count: number) {
  const tip = d.ports.chain.height();
  const blocks = await blocksDown(d, tip, Math.max(1, tip - EXPLORER_TX_WINDOW_BLOCKS + 1));
  const picked = newestFirst(
    blocks.map((b) => b.transactions.length),
    offset,
    count,
  );
  const items = picked.map(({ block, index }) => transactionSummary(blocks[block]!, index)!);
  return { items, total: blocks.reduce((n, b) => n + b.transactions.length, 0) };
}

/** Fields every explorer route shares (a fresh object each time: no shared mutable arrays). */
function common() {
  return { tags: ['explorer'], visibility: 'public' as const, formats: JSON_OR_CODEC };
}

function blockRoutes(d: RouteDeps): RouteDef[] {
  const { chain } = d.ports;
  return [
    defineRoute({
      ...common(),
      method: 'GET',
      url: '/v1/explorer/blocks',
      operationId: 'explorerListBlocks',
      summary: 'Blocks, newest first: {pagination, items} with page and per_page',
      schema: { querystring: ExplorerQuerystring, response: { 200: viewSchema(ExplorerBlockListView) } },
      handler: async (req, reply) => {
        const p = parseExplorerPage(req.query, d.limits);
        const tip = chain.height();
        const from = tip - p.offset;
        const blocks = from < 1 ? [] : await blocksDown(d, from, Math.max(1, from - p.perPage + 1));
        return respond(d.schema, req, reply, ExplorerBlockListView, {
          pagination: explorerPagination(p, tip),
          items: blocks.map(blockSummary),
        });
      },
    }),
    defineRoute({
      ...common(),
      method: 'GET',
      url: '/v1/explorer/blocks/:height',
      operationId: 'explorerGetBlock',
      summary: 'One block: header, transaction summaries and commit certificate summary',
      errorStatuses: [404],
      schema: { params: HeightParams, response: { 200: viewSchema(ExplorerBlockDetailView) } },
      handler: async (req, reply) => {
        const height = pathHeight(req.params.height);
        const block = height > chain.height() ? undefined : await chain.block(height);
        if (block === undefined) throw gatewayError('not_found', { height, tip: chain.height() });
        return respond(d.schema, req, reply, ExplorerBlockDetailView, blockDetail(block));
      },
    }),
  ];
}

function transactionRoutes(d: RouteDeps): RouteDef[] {
  const { chain } = d.ports;
  return [
    defineRoute({
      ...common(),
      method: 'GET',
      url: '/v1/explorer/transactions',
      operationId: 'explorerListTransactions',
      summary: `Transactions of the newest ${EXPLORER_TX_WINDOW_BLOCKS} blocks, newest first`,
      schema: {
        querystring: ExplorerQuerystring,
        response: { 200: viewSchema(ExplorerTransactionListView) },
      },
      handler: async (req, reply) => {
        const p = parseExplorerPage(req.query, d.limits);
        const r = await recentTransactions(d, p.offset, p.perPage);
        return respond(d.schema, req, reply, ExplorerTransactionListView, {
          pagination: explorerPagination(p, r.total),
          items: r.items,
        });
      },
    }),
    defineRoute({
      ...common(),
      method: 'GET',
      url: '/v1/explorer/transactions/:hash',
      operationId: 'explorerGetTransaction',
      summary: 'One committed transaction by hash, with its result, block height and index',
      errorStatuses: [404],
      schema: { params: HashParams, response: { 200: viewSchema(ExplorerTransactionDetailView) } },
      handler: async (req, reply) => {
        const hash = pathHash(req.params.hash);
        const at = chain.locate(hash);
        const block = at === undefined ? undefined : await chain.block(at.height);
        const detail =
          at === undefined || block === undefined ? undefined : transactionDetail(block, at.index);
        if (detail === undefined) throw gatewayError('not_found', { hash: req.params.hash.toLowerCase() });
        return respond(d.schema, req, reply, ExplorerTransactionDetailView, detail);
      },
    }),
  ];
}

export function explorerChainRoutes(d: RouteDeps): RouteDef[] {
  return [...blockRoutes(d), ...transactionRoutes(d)];
}
