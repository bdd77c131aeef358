// Explorer instructions: every instruction of every committed transaction, newest
// first, with the list filters (filters.ts), the latest few unpaged, and one instruction by transaction
// hash and index with its codec bytes (hex) and JSON. Lists scan the block store (scan.ts states the
// cost); `transaction_hash` narrows the scan to that transaction's block.

import { Type } from 'typebox';
import { gatewayError } from '../../gateway/errors.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { pathHash } from '../../gateway/routes/app-params.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { Block } from '../../model/block.js';
import { transactionHash } from '../../model/transaction.js';
import { fromHex, toHex } from '../../util/hex.js';
import { committedTransaction, latestRoute, scanListRoute, scanRange } from './chain-routes.js';
import { common, type ExplorerContext, workUnitsMax } from './context.js';
import {
  type InstructionFilter,
  InstructionFilterQuery,
  instructionMatches,
  parseInstructionFilter,
} from './filters.js';
import { instructionItem } from './items.js';
import { instructionPlaces, type Place, scanNewestFirst } from './scan.js';
import {
  ExplorerInstructionListView,
  ExplorerInstructionView,
  ExplorerLatestInstructionsView,
} from './views-more.js';

const InstructionParams = Type.Object({
  hash: Type.String({ maxLength: 128 }),
  index: Type.String({ maxLength: 20, description: 'instruction index in the transaction, from 0' }),
});

/** Hex hashes of a block's transactions, computed once per block visited. */
function hashesOf(b: Block): (tx: number) => string {
  const cache: string[] = [];
  return (tx) => {
    cache[tx] ??= toHex(transactionHash(b.transactions[tx]!));
    return cache[tx]!;
  };
}

export function instructionAt(b: Block, p: Place, hashOf: (tx: number) => string) {
  return instructionItem(b, p.tx, p.ins, hashOf(p.tx))!;
}

export function instructionPage(x: ExplorerContext, f: InstructionFilter, offset: number, limit: number) {
  const { chain } = x.port;
  const tip = chain.height();
  let { from, to } = scanRange(tip, f.block);
  if (f.transactionHash !== undefined) {
    const at = chain.locate(fromHex(f.transactionHash, 32)!);
    if (at === undefined || (f.block !== undefined && at.height !== f.block)) return { items: [], total: 0 };
    from = at.height;
    to = at.height;
  }
  let current: { block: Block; hashOf: (tx: number) => string } | undefined;
  const hashes = (b: Block) => {
    if (current?.block !== b) current = { block: b, hashOf: hashesOf(b) };
    return current.hashOf;
  };
  return scanNewestFirst(
    chain,
    {
      from,
      to,
      offset,
      limit,
      places: instructionPlaces,
      keep: (b, p) => instructionMatches(f, b, p.tx, p.ins, () => hashes(b)(p.tx)),
      build: (b, p) => instructionAt(b, p, hashes(b)),
    },
    workUnitsMax(x),
  );
}

function listRoute(x: ExplorerContext): RouteDef {
  return scanListRoute(x, {
    url: '/v1/explorer/instructions',
    operationId: 'explorerListInstructions',
    summary: 'Instructions of committed transactions, newest first, with filters: {pagination, items}',
    description:
      'Filters: authority, account, transaction_hash, transaction_status, block, kind, asset_id. Read by ' +
      'scanning blocks from the tip (or the one block a `block` or `transaction_hash` names), under ' +
      '`query.work_units_max`: a long chain answers 422 query_budget_exceeded.',
    querystring: InstructionFilterQuery,
    view: ExplorerInstructionListView,
    parse: parseInstructionFilter,
    page: instructionPage,
  });
}

function newestRoute(x: ExplorerContext): RouteDef {
  return latestRoute(x, {
    url: '/v1/explorer/instructions/latest',
    operationId: 'explorerLatestInstructions',
    summary: 'The newest instructions of committed transactions, unpaged: {items}',
    view: ExplorerLatestInstructionsView,
    places: instructionPlaces,
    build: (b) => {
      const hashOf = hashesOf(b);
      return (p) => instructionAt(b, p, hashOf);
    },
  });
}

function oneRoute(x: ExplorerContext): RouteDef {
  const { chain } = x.port;
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/instructions/:hash/:index',
    operationId: 'explorerGetInstruction',
    summary: 'One instruction of a committed transaction: box {encoded (codec bytes, hex), json}',
    errorStatuses: [404],
    schema: { params: InstructionParams, response: { 200: viewSchema(ExplorerInstructionView) } },
    handler: async (req, reply) => {
      const hash = pathHash(req.params.hash);
      const text = req.params.index;
      const index = /^(0|[1-9][0-9]{0,8})$/.test(text) ? Number(text) : undefined;
      if (index === undefined)
        throw gatewayError('bad_request', {
          location: 'params',
          index: text.slice(0, 32),
          expected: 'an integer >= 0',
        });
      const at = await committedTransaction(chain, hash);
      const item = at === undefined ? undefined : instructionItem(at.block, at.index, index, toHex(hash));
      if (item === undefined) throw gatewayError('not_found', { hash: toHex(hash), index });
      return respond(x.deps.schema, req, reply, ExplorerInstructionView, item);
    },
  });
}

export function instructionRoutes(x: ExplorerContext): RouteDef[] {
  return [listRoute(x), newestRoute(x), oneRoute(x)];
}
