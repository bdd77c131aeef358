// What the routes over the block store share (transactions and instructions, docs/explorer.md): the
// filtered list read by a newest-first scan, the latest-N view read down from the tip, and the lookup of
// one committed transaction by hash. Each route table keeps its own URLs, filters and items.

import type { TSchema } from 'typebox';
import { Type } from 'typebox';
import type { Codec } from '../../codec/codec.js';
import { gatewayError } from '../../gateway/errors.js';
import { numberedPagination, parseNumberedPage } from '../../gateway/list.js';
import type { ChainReader } from '../../gateway/ports.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { Block } from '../../model/block.js';
import { common, type ExplorerContext, LATEST_LIMIT_DEFAULT, LATEST_LIMIT_MAX, withIds } from './context.js';
import { FILTER_IDS } from './filters.js';
import type { Place } from './scan.js';

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

/** The heights a list scans, newest first: from the tip down to 1, or the one block of `block`. */
export function scanRange(tip: number, block: number | undefined): { from: number; to: number } {
  return block === undefined ? { from: tip, to: 1 } : { from: Math.min(block, tip), to: block };
}

type Query = Partial<Record<string, string>>;
type Pagination = ReturnType<typeof numberedPagination>;
type Page<T> = { items: T[]; total: number };

/** A list route: its URL and documentation, its filters (query string and parser), its scan and view. */
export interface ScanListSpec<F, T> {
  url: string;
  operationId: string;
  summary: string;
  description: string;
  querystring: TSchema;
  view: Codec<{ pagination: Pagination; items: T[] }>;
  parse(query: Query): F;
  page(x: ExplorerContext, f: F, offset: number, limit: number): Page<T> | Promise<Page<T>>;
}

/** A paged, filtered list read by a scan of the block store: {pagination, items}; 422 over budget. */
export function scanListRoute<F, T>(x: ExplorerContext, s: ScanListSpec<F, T>): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: s.url,
    operationId: s.operationId,
    summary: s.summary,
    description: s.description,
    errorStatuses: [422],
    schema: { querystring: s.querystring, response: { 200: viewSchema(s.view as Codec<unknown>) } },
    handler: async (req, reply) => {
      const query = req.query as Query & { page?: unknown; per_page?: unknown };
      const p = parseNumberedPage(query, x.deps.limits);
      const f = s.parse(await withIds(x, query, FILTER_IDS));
      const r = await s.page(x, f, p.offset, p.perPage);
      return respond(x.deps.schema, req, reply, s.view, {
        pagination: numberedPagination(p, r.total),
        items: r.items,
      });
    },
  });
}

/** A latest-N route: URL and documentation, its view, and how a block's places become items. */
export interface LatestSpec<T> {
  url: string;
  operationId: string;
  summary: string;
  view: Codec<{ items: T[] }>;
  /** The block's places, newest first. */
  places(b: Block): Place[];
  /** The item builder of one block (called once per block read). */
  build(b: Block): (p: Place) => T;
}

/** The newest `limit` items, unpaged: reads blocks down from the tip only until it has them. */
export function latestRoute<T>(x: ExplorerContext, s: LatestSpec<T>): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: s.url,
    operationId: s.operationId,
    summary: s.summary,
    schema: { querystring: LatestQuery, response: { 200: viewSchema(s.view as Codec<unknown>) } },
    handler: async (req, reply) => {
      const limit = parseLatestLimit(req.query.limit);
      const items: T[] = [];
      for (let h = x.port.chain.height(); h >= 1 && items.length < limit; h--) {
        const b = await x.port.chain.block(h);
        if (b === undefined) continue;
        const build = s.build(b);
        for (const p of s.places(b)) {
          if (items.length >= limit) break;
          items.push(build(p));
        }
      }
      return respond(x.deps.schema, req, reply, s.view, { items });
    },
  });
}

/** The committed block holding the transaction `hash` and its index there, if the node has it. */
export async function committedTransaction(
  chain: ChainReader,
  hash: Uint8Array,
): Promise<{ block: Block; index: number } | undefined> {
  const at = chain.locate(hash);
  const block = at === undefined ? undefined : await chain.block(at.height);
  return at === undefined || block === undefined ? undefined : { block, index: at.index };
}
