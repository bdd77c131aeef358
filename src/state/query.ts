// Query execution over the committed (base) state (reference-notes §1; model/queries.ts). Singular
// queries answer one output or not_found. Iterable queries: collect items → filter → sort → paginate
// (offset, limit) → first batch of fetchSize, the rest parked behind a cursor. Any account may read (a
// permissioned network admits only known accounts); `canRead` is the hook for finer read permissions.

import type { Json } from '../codec/codec.js';
import { defaultParameters } from '../model/parameters.js';
import type {
  QueryOutput,
  QueryParams,
  QueryRequest,
  QueryResponse,
  SingularQuery,
} from '../model/queries.js';
import { type BlockSource, EMPTY_BLOCK_SOURCE } from './block-source.js';
import type { CursorStore } from './cursors.js';
import { type QueryError, queryError } from './errors.js';
import { compileFilter } from './filter.js';
import { SINGLETON_ID } from './keys.js';
import { committedTransaction, type Item, iterableItems } from './query-sources.js';
import { parseSort, sortItems } from './sort.js';
import type { WorldState } from './world-state.js';

export const FETCH_SIZE_DEFAULT = 100;
export const FETCH_SIZE_MAX = 10_000;

export interface QueryOptions {
  readonly cursors: CursorStore;
  readonly blocks?: BlockSource;
  readonly fetchSizeDefault?: number;
  readonly fetchSizeMax?: number;
  /** Read-permission hook; every authority may read when absent. */
  readonly canRead?: (authority: string, request: QueryRequest) => boolean;
}

export function executeQuery(
  state: WorldState,
  request: QueryRequest,
  authority: string,
  opts: QueryOptions,
): QueryResponse | QueryError {
  if (opts.canRead !== undefined && !opts.canRead(authority, request)) {
    return queryError('permission_denied', `${authority} may not run this query`, { authority });
  }
  const blocks = opts.blocks ?? EMPTY_BLOCK_SOURCE;
  switch (request.kind) {
    case 'Singular': {
      const output = singular(state, request.query, blocks);
      return 'code' in output ? output : { kind: 'Singular', output: structuredClone(output) };
    }
    case 'Start':
      return start(state, request, authority, blocks, opts);
    case 'Continue': {
      const next = opts.cursors.next(request.cursor, authority);
      if ('code' in next) return next;
      return iterable(next.batch, next.remainingItems, next.cursor);
    }
  }
}

function iterable(batch: QueryOutput[], remainingItems: number, cursor: string | undefined): QueryResponse {
  // Batches are copies: callers (the gateway) must not be able to reach the state's rows.
  const copy = structuredClone(batch);
  return cursor === undefined
    ? { kind: 'Iterable', batch: copy, remainingItems }
    : { kind: 'Iterable', batch: copy, remainingItems, cursor };
}

function pagination(p: QueryParams, opts: QueryOptions): { fetchSize: number } | QueryError {
  const max = opts.fetchSizeMax ?? FETCH_SIZE_MAX;
  const fetchSize = p.fetchSize ?? Math.min(opts.fetchSizeDefault ?? FETCH_SIZE_DEFAULT, max);
  const bad = (field: string, why: string) => queryError('invalid_pagination', `${field} ${why}`, { field });
  if (!Number.isSafeInteger(fetchSize) || fetchSize < 1 || fetchSize > max)
    return bad('fetch_size', `must be 1..${max}`);
  if (p.limit !== undefined && (!Number.isSafeInteger(p.limit) || p.limit < 1))
    return bad('limit', 'must be at least 1');
  if (!Number.isSafeInteger(p.offset) || p.offset < 0) return bad('offset', 'must be a non-negative integer');
  return { fetchSize };
}

function start(
  state: WorldState,
  request: Extract<QueryRequest, { kind: 'Start' }>,
  authority: string,
  blocks: BlockSource,
  opts: QueryOptions,
): QueryResponse | QueryError {
  const p = request.params;
  const page = pagination(p, opts);
  if ('code' in page) return page;
  const predicate = p.filter === undefined ? undefined : compileFilter(p.filter);
  if (predicate !== undefined && typeof predicate !== 'function') return predicate;
  const sortKeys = p.sort === undefined ? undefined : parseSort(p.sort);
  if (sortKeys !== undefined && !Array.isArray(sortKeys)) return sortKeys;
  const collected = iterableItems(state, request.query, blocks);
  if (!Array.isArray(collected)) return collected;
  // JSON forms are computed at most once per item, and only when a filter or sort needs them.
  const jsonCache = new Map<Item, Json>();
  const jsonOf = (item: Item): Json => {
    let j = jsonCache.get(item);
    if (j === undefined) {
      j = item.json();
      jsonCache.set(item, j);
    }
    return j;
  };
  let items = predicate === undefined ? collected : collected.filter((item) => predicate(jsonOf(item)));
  if (sortKeys !== undefined) items = sortItems(items, sortKeys, jsonOf, (item) => item.tie);
  const end = p.limit === undefined ? items.length : p.offset + p.limit;
  const outputs = items.slice(p.offset, end).map((item) => item.output);
  const first = outputs.slice(0, page.fetchSize);
  if (first.length === outputs.length) return iterable(first, 0, undefined);
  const rest = outputs.slice(page.fetchSize);
  const cursor = opts.cursors.open(authority, rest, page.fetchSize);
  if (typeof cursor !== 'string') return cursor;
  return iterable(first, rest.length, cursor);
}

function singular(state: WorldState, q: SingularQuery, blocks: BlockSource): QueryOutput | QueryError {
  const t = state.tables;
  const found = (
    kind: QueryOutput['kind'],
    value: unknown,
    what: string,
    id: string | number,
  ): QueryOutput | QueryError =>
    value === undefined
      ? queryError('not_found', `no ${what} ${id}`, { id })
      : ({ kind, value } as QueryOutput);
  switch (q.kind) {
    case 'FindDomainById':
      return found('Domain', t.domain.get(q.id), 'domain', q.id);
    case 'FindAccountById':
      return found('Account', t.account.get(q.id), 'account', q.id);
    case 'FindAssetDefinitionById':
      return found('AssetDefinition', t.assetDefinition.get(q.id), 'asset definition', q.id);
    case 'FindAssetById':
      return found('Asset', t.asset.get(q.id), 'asset', q.id);
    case 'FindNftById':
      return found('Nft', t.nft.get(q.id), 'NFT', q.id);
    case 'FindRoleById':
      return found('Role', t.role.get(q.id), 'role', q.id);
    case 'FindParameters':
      return { kind: 'Parameters', value: t.parameters.get(SINGLETON_ID) ?? defaultParameters() };
    case 'FindTransactionByHash': {
      const at = blocks.transaction(q.hash.toLowerCase());
      return found('Transaction', at && committedTransaction(blocks, at), 'transaction', q.hash);
    }
    case 'FindBlockByHeight':
      return found('Block', blocks.block(q.height), 'block at height', q.height);
    case 'FindUpgradeById':
      return found('Upgrade', t.upgrade.get(q.id.toLowerCase()), 'upgrade', q.id);
  }
}
