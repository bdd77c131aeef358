// Building blocks of the simple list routes: a GET list taking `limit`, `offset`,
// `filter` and `sort` in the query string, its `POST …/query` twin taking the same in a JSON body, and the
// one function both answer with.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Codec } from '../../codec/codec.js';
import { answerCached, type RenderedAnswer, sendAnswer } from '../answer-cache.js';
import type { RouteDeps } from '../deps.js';
import { filterIds, type IdFields } from '../id-filter.js';
import {
  jsonFieldsOf,
  LIST_QUERY_BODY_BYTES_MAX,
  type ListInput,
  ListQueryBody,
  ListQuerystring,
  parseListParams,
} from '../list.js';
import { arraySource, type ListSource, scanList } from '../list-scan.js';
import type { FormatOffer } from '../negotiate.js';
import type { ListedRows, StateReader } from '../ports.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { renderView, viewSchema } from '../view.js';

export const JSON_OR_CODEC: FormatOffer = { default: 'json', offers: ['json', 'codec'] };

export type ListOf<I> = { items: I[]; total: number };

export interface ListViews<I> {
  item: Codec<I>;
  list: Codec<ListOf<I>>;
  /** The item's id: the default order and the tie-break of every sort. */
  idOf: (item: I) => string;
  /** Fields naming an account, definition or asset: a filter may compare them with a name (id-filter.ts). */
  idFields?: IdFields;
}

export const itemId = (item: { id: string }): string => item.id;

/**
 * Filters, sorts and pages `source` over its items' JSON forms, then renders the page with `views.list`;
 * names in place of ids in the filter are first resolved to ids (`views.idFields`).
 * An array is taken as it is (small per-parent lists); tables come as a ListSource so a page costs
 * O(page).
 */
export async function renderList<I>(
  d: RouteDeps,
  req: FastifyRequest,
  views: ListViews<I>,
  source: ListSource<I> | readonly I[],
  input: ListInput,
): Promise<RenderedAnswer> {
  const resolved =
    views.idFields === undefined
      ? input
      : await filterIds(d.ports.state, d.ports.chain, input, views.idFields, d.ports.query.filterDepthMax);
  const p = parseListParams(resolved, d.limits, jsonFieldsOf(views.item), d.ports.query);
  const from = Array.isArray(source) ? arraySource(source, views.idOf) : (source as ListSource<I>);
  const page = await scanList(from, p, (item) => views.item.toJson(item), d.listScans);
  return renderView(d.schema, req.responseFormat, views.list, page);
}

/** Answers one page of `source` (renderList). */
export async function answerList<I>(
  d: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  views: ListViews<I>,
  source: ListSource<I> | readonly I[],
  input: ListInput,
): Promise<FastifyReply> {
  return sendAnswer(reply, await renderList(d, req, views, source, input));
}

/**
 * A GET list page of the committed state, kept per commit in `d.answers` (answer-cache.ts): `source` is
 * read only when the page is not cached. Lists whose items are not committed state must use answerList.
 */
export function answerStateList<I>(
  d: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  views: ListViews<I>,
  source: () => ListSource<I> | readonly I[],
  input: ListInput,
): FastifyReply | Promise<FastifyReply> {
  return answerCached(d.answers, req, reply, () => renderList(d, req, views, source(), input));
}

/**
 * A table's items as list items: ids from the state's sorted index; the page's rows read (and copied) on
 * demand, scanned rows peeked at without copying (they only become JSON).
 */
export function tableSource<N extends keyof ListedRows, I>(
  state: StateReader,
  table: N,
  toItem: (row: ListedRows[N]) => I,
): () => ListSource<I> {
  const item = (row: Readonly<ListedRows[N]> | undefined) =>
    row === undefined ? undefined : toItem(row as ListedRows[N]);
  return () => {
    const snapshot = state.sortedIds(table);
    return {
      ids: () => snapshot,
      get: (id) => item(readCopy(state, table, id)),
      peek: (id) => item(state.peek(table, id)),
    };
  };
}

function readCopy<N extends keyof ListedRows>(
  state: StateReader,
  table: N,
  id: string,
): ListedRows[N] | undefined {
  const readers: { [K in keyof ListedRows]: (id: string) => ListedRows[K] | undefined } = {
    domain: (i) => state.domain(i),
    account: (i) => state.account(i),
    assetDefinition: (i) => state.assetDefinition(i),
    asset: (i) => state.asset(i),
    nft: (i) => state.nft(i),
  };
  return readers[table](id);
}

export function queryInput(q: {
  limit?: string;
  offset?: string;
  filter?: string;
  sort?: string;
}): ListInput {
  return {
    limit: q.limit,
    offset: q.offset,
    sort: q.sort,
    ...(q.filter === undefined ? {} : { filterText: q.filter }),
  };
}

export interface ListResource<I> {
  /** Collection path, e.g. '/v1/domains'. */
  url: string;
  /** PascalCase plural for operation ids: listDomains, queryDomains. */
  noun: string;
  what: string;
  tags: string[];
  views: ListViews<I>;
  /** The items by id (the answer is ordered by id or by `sort`). */
  source: () => ListSource<I>;
}

/** `GET <url>` and `POST <url>/query` for one resource. */
export function listRoutes<I>(d: RouteDeps, r: ListResource<I>): RouteDef[] {
  const { views } = r;
  return [
    defineRoute({
      method: 'GET',
      url: r.url,
      operationId: `list${r.noun}`,
      summary: `List ${r.what}: {items, total} with limit, offset, filter (JSON) and sort`,
      tags: r.tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { querystring: ListQuerystring, response: { 200: viewSchema(views.list) } },
      ...(d.answers === undefined ? {} : { answers: d.answers }),
      handler: (req, reply) => answerStateList(d, req, reply, views, r.source, queryInput(req.query)),
    }),
    defineRoute({
      method: 'POST',
      url: `${r.url}/query`,
      operationId: `query${r.noun}`,
      summary: `Query ${r.what} with {filter, sort, limit, offset} in a JSON body`,
      tags: r.tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      bodyBytesMax: d.limits.listQueryBodyBytesMax ?? LIST_QUERY_BODY_BYTES_MAX,
      schema: { body: ListQueryBody, response: { 200: viewSchema(views.list) } },
      handler: (req, reply) => answerList(d, req, reply, views, r.source(), { ...req.body }),
    }),
  ];
}
