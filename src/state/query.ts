// Query execution over the committed (base) state (model/queries.ts). Singular
// queries answer one output or not_found. Iterable queries: collect items → filter → sort → paginate
// (offset, limit) → first batch of fetchSize, the rest parked behind a cursor. Any account may read (a
// permissioned network admits only known accounts); `canRead` is the hook for finer read permissions.

import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { AnyCodec } from '../codec/codec.js';
import { defaultParameters } from '../model/parameters.js';
import type {
  QueryOutput,
  QueryParams,
  QueryRequest,
  QueryResponse,
  SingularQuery,
} from '../model/queries.js';
import { type BlockSource, EMPTY_BLOCK_SOURCE } from './block-source.js';
import { type CursorStore, type Pager, refPager } from './cursors.js';
import { type QueryError, queryError } from './errors.js';
import { compileFilter, type Predicate } from './filter.js';
import { SINGLETON_ID } from './keys.js';
import { orderedScan } from './query-ordered.js';
import {
  committedTransaction,
  ITEM_CODECS,
  type ItemSource,
  itemKindOf,
  iterableSource,
} from './query-sources.js';
import { compareEntries, parseSort, type SortEntry, type SortKey, sortEntry } from './sort.js';
import { TopK } from './top-k.js';
import { QUERY_WORK_UNITS_MAX, WorkBudget } from './work-budget.js';
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
  /** Cap on the summed size of a filter's values (filter.ts FILTER_VALUE_CHARS_MAX by default). */
  readonly filterValueCharsMax?: number;
  /** Work budget of one Start (work-budget.ts QUERY_WORK_UNITS_MAX by default). */
  readonly workUnitsMax?: number;
}

/** Items scanned per slice of a filtered or sorted Start; the scan yields to the event loop between slices. */
const SCAN_SLICE_ITEMS = 256;
const SCAN_SLICE_MS = 5;

/**
 * Runs `request` for `authority`. A Start with a filter or sort scans its source in slices and yields to
 * the event loop between them (so the node keeps answering), within the query's work budget.
 */
export async function executeQuery(
  state: WorldState,
  request: QueryRequest,
  authority: string,
  opts: QueryOptions,
): Promise<QueryResponse | QueryError> {
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

/** Sort keys whose first segment is a field of the query's items (the list routes' rule: invalid_sort). */
function sortKeysFor(
  text: string,
  request: Extract<QueryRequest, { kind: 'Start' }>,
): SortKey[] | QueryError {
  const keys = parseSort(text);
  if (!Array.isArray(keys)) return keys;
  const codec: AnyCodec | undefined = ITEM_CODECS[itemKindOf(request.query)];
  const d = codec?.describe(() => 'x');
  if (d?.kind !== 'struct') return keys;
  const fields = d.fields.map((f) => f.name);
  const unknown = keys.find((k) => !fields.includes(k.segments[0]!));
  if (unknown === undefined) return keys;
  return queryError('invalid_sort', `sort ${JSON.stringify(text)}: unknown field ${unknown.field}`, {
    sort: text,
    reason: `unknown field ${unknown.field}`,
    fields,
  });
}

/**
 * References of the items that pass `predicate`, in `sortKeys` order (or default order). With `keep`
 * (offset + limit of a sorted query) only that many leading matches are kept, in a bounded heap
 * (top-k.ts), instead of every match sorted at the end: a sorted query over a million holders kept
 * and sorted half a million entries for a page of 10.
 */
async function scan(
  source: ItemSource,
  predicate: Predicate | undefined,
  sortKeys: readonly SortKey[],
  budget: WorkBudget,
  keep?: number,
): Promise<unknown[] | QueryError> {
  const compare = (a: SortEntry<unknown>, b: SortEntry<unknown>) => compareEntries(a, b, sortKeys);
  const top = sortKeys.length > 0 && keep !== undefined ? new TopK(keep, compare) : undefined;
  const kept: SortEntry<unknown>[] = [];
  let sliceStart = performance.now();
  for (let from = 0; from < source.count; from += SCAN_SLICE_ITEMS) {
    if (performance.now() - sliceStart > SCAN_SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    const items = source.slice(from, from + SCAN_SLICE_ITEMS);
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      budget.charge(source.scanUnits);
      const json = item.json();
      if (predicate === undefined || predicate(json)) {
        const entry = sortEntry(item.ref, json, item.tie, sortKeys);
        if (top !== undefined) top.offer(entry);
        else kept.push(entry);
      }
      if (budget.exceeded) return budget.error(from + i + 1);
    }
  }
  if (top !== undefined) return top.sorted().map((e) => e.item);
  if (sortKeys.length > 0) kept.sort(compare);
  return kept.map((e) => e.item);
}

/** A pager over positions [from, to) of a source whose positions never change. */
function rangePager(source: ItemSource, from: number, to: number): Pager {
  let position = from;
  return {
    get remaining() {
      return to - position;
    },
    take(n) {
      const items = source.slice(position, Math.min(position + n, to));
      position += items.length;
      return items.map((item) => source.output(item.ref));
    },
  };
}

async function start(
  state: WorldState,
  request: Extract<QueryRequest, { kind: 'Start' }>,
  authority: string,
  blocks: BlockSource,
  opts: QueryOptions,
): Promise<QueryResponse | QueryError> {
  const p = request.params;
  const page = pagination(p, opts);
  if ('code' in page) return page;
  const budget = new WorkBudget(opts.workUnitsMax ?? QUERY_WORK_UNITS_MAX);
  const filterOpts = {
    meter: budget,
    ...(opts.filterValueCharsMax === undefined ? {} : { valueCharsMax: opts.filterValueCharsMax }),
  };
  const predicate = p.filter === undefined ? undefined : compileFilter(p.filter, filterOpts);
  if (predicate !== undefined && typeof predicate !== 'function') return predicate;
  const sortKeys = p.sort === undefined ? [] : sortKeysFor(p.sort, request);
  if (!Array.isArray(sortKeys)) return sortKeys;
  const source = iterableSource(state, request.query, blocks);
  if ('code' in source) return source;
  let pager: Pager;
  if (predicate === undefined && sortKeys.length === 0) {
    // Only the requested range is touched: a chain range is kept as two numbers, rows as references.
    const from = Math.min(p.offset, source.count);
    const to = p.limit === undefined ? source.count : Math.min(source.count, p.offset + p.limit);
    pager = source.stable
      ? rangePager(source, from, to)
      : refPager(
          source.slice(from, to).map((item) => item.ref),
          (ref) => source.output(ref),
        );
  } else {
    const keep = p.limit === undefined ? undefined : p.offset + p.limit;
    const ordered = sortKeys.length === 1 ? source.ordered?.(sortKeys[0]!, p.filter) : undefined;
    const fromIndex =
      ordered === undefined
        ? undefined
        : await orderedScan(ordered, predicate, budget, source.scanUnits, keep);
    const refs = fromIndex ?? (await scan(source, predicate, sortKeys, budget, keep));
    if (!Array.isArray(refs)) return refs;
    const end = p.limit === undefined ? refs.length : p.offset + p.limit;
    pager = refPager(refs.slice(p.offset, end), (ref) => source.output(ref));
  }
  const first = pager.take(page.fetchSize);
  if (pager.remaining === 0) return iterable(first, 0, undefined);
  const cursor = opts.cursors.open(authority, pager, page.fetchSize);
  if (typeof cursor !== 'string') return cursor;
  return iterable(first, pager.remaining, cursor);
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
