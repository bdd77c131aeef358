// Explorer blocks and the tip: blocks newest first, one block by height or by hash
// with its transactions and certificate summary, and `health` (the tip's height, hash and time).

import { Type } from 'typebox';
import { gatewayError } from '../../gateway/errors.js';
import { numberedPagination, PageNumberQuerystring, parseNumberedPage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { pathHeight } from '../../gateway/routes/app-params.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { type Block, blockHash } from '../../model/block.js';
import { fromHex, toHex } from '../../util/hex.js';
import { common, type ExplorerContext } from './context.js';
import { blockDetail, blockSummary } from './items.js';
import { ExplorerBlockDetailView, ExplorerBlockListView } from './views.js';
import { ExplorerHealthView } from './views-more.js';

const IdentifierParams = Type.Object({
  identifier: Type.String({
    maxLength: 128,
    description: 'a height (integer >= 1) or a block hash (64 hex)',
  }),
});

export async function blocksDown(x: ExplorerContext, from: number, to: number): Promise<Block[]> {
  const out: Block[] = [];
  for (let h = from; h >= to; h--) {
    const b = await x.port.chain.block(h);
    if (b !== undefined) out.push(b);
  }
  return out;
}

/** The height a path identifier names, or undefined when no committed block has that hash. */
async function heightOf(x: ExplorerContext, identifier: string): Promise<number | undefined> {
  if (identifier.length === 64) {
    const hash = fromHex(identifier, 32);
    if (hash !== undefined) return x.port.blockHeightByHash(hash);
  }
  return pathHeight(identifier);
}

function listRoute(x: ExplorerContext): RouteDef {
  const { chain } = x.port;
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/blocks',
    operationId: 'explorerListBlocks',
    summary: 'Blocks, newest first: {pagination, items} with page and per_page',
    schema: { querystring: PageNumberQuerystring, response: { 200: viewSchema(ExplorerBlockListView) } },
    handler: async (req, reply) => {
      const p = parseNumberedPage(req.query, x.deps.limits);
      const tip = chain.height();
      const from = tip - p.offset;
      const blocks = from < 1 ? [] : await blocksDown(x, from, Math.max(1, from - p.perPage + 1));
      return respond(x.deps.schema, req, reply, ExplorerBlockListView, {
        pagination: numberedPagination(p, tip),
        items: blocks.map(blockSummary),
      });
    },
  });
}

function oneRoute(x: ExplorerContext): RouteDef {
  const { chain } = x.port;
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/blocks/:identifier',
    operationId: 'explorerGetBlock',
    summary: 'One block by height or hash: header, transaction summaries and commit certificate summary',
    description:
      'A hash is looked up among the newest 16,384 blocks (the consensus block-hash lookup); older ' +
      'blocks are reached by height.',
    errorStatuses: [404],
    schema: { params: IdentifierParams, response: { 200: viewSchema(ExplorerBlockDetailView) } },
    handler: async (req, reply) => {
      const id = req.params.identifier;
      const height = await heightOf(x, id);
      const block = height === undefined || height > chain.height() ? undefined : await chain.block(height);
      if (block === undefined)
        throw gatewayError('not_found', { block: id.toLowerCase().slice(0, 64), tip: chain.height() });
      return respond(x.deps.schema, req, reply, ExplorerBlockDetailView, blockDetail(block));
    },
  });
}

function healthRoute(x: ExplorerContext): RouteDef {
  const { chain } = x.port;
  return defineRoute({
    ...common(),
    method: 'GET',
    url: '/v1/explorer/health',
    operationId: 'explorerHealth',
    summary: 'The tip: height, block hash and creation time',
    schema: { response: { 200: viewSchema(ExplorerHealthView) } },
    handler: async (req, reply) => {
      const height = chain.height();
      const tip = height === 0 ? undefined : await chain.block(height);
      return respond(x.deps.schema, req, reply, ExplorerHealthView, {
        height,
        blockHash: tip === undefined ? '0'.repeat(64) : toHex(blockHash(tip.header)),
        creationTimeMs: tip?.header.creationTimeMs ?? 0,
      });
    },
  });
}

export function blockRoutes(x: ExplorerContext): RouteDef[] {
  return [listRoute(x), oneRoute(x), healthRoute(x)];
}
