// Shared machinery of list routes (§12): parsing `limit`,
// `offset`, `filter` and `sort` (from a query string or a JSON body), applying them to items through
// their snake_case JSON form, and the arithmetic of numbered pages (`page`, `per_page`).
//
// - Simple lists answer `{items, total}`; `total` counts the items that pass the filter, before paging.
// - `limit` is an integer in 1..listLimitMax (default listLimitDefault); `offset` an integer >= 0. Anything
//   else (0, above the cap, "1.5", "abc") is 400 `invalid_pagination`. An offset past the end gives an
//   empty page, not an error.
// - `filter` is the JSON expression of the query engine (query-port.ts); nesting is capped by the node's
//   `filterDepthMax` (and never deeper than the engine's own `filterDepthMax`). Errors are 400
//   `invalid_filter`.
// - `sort` is `field:asc,other:desc` (the engine's `parseSort`); the first segment of each field must be a field of
//   the item, `metadata.<key>` and other nested paths are allowed. Errors are 400 `invalid_sort`.
// - Without `sort` items come in id order; with it, ties still fall back to id order (a total order).

import { Type } from 'typebox';
import type { AnyCodec } from '../codec/codec.js';
import type { RouteLimits } from './deps.js';
import { gatewayError } from './errors.js';
import type { Predicate, QueryPort, SortKey, WorkBudget } from './query-port.js';

/** Longest `filter` / `sort` text accepted in a query string (the header limit bounds it anyway). */
export const LIST_FILTER_CHARS_MAX = 8 * 1024;
export const LIST_SORT_CHARS_MAX = 512;
/**
 * Default body cap of `POST /v1/<resource>/query`: a filter's values are capped at 64 Ki characters
 * (`query.filter_value_chars_max`), so a bigger body can only be refused, and parsing one costs the event
 * loop milliseconds per request (8 clients sending 1 MiB filters held /health 0.5 s).
 */
export const LIST_QUERY_BODY_BYTES_MAX = 256 * 1024;
/** Offsets and pages are bounded so that `offset + limit` and `(page - 1) * per_page` stay exact. */
export const LIST_OFFSET_MAX = 2 ** 32;
/** Default size of a numbered page (`per_page`): 20 suits a table on one screen. */
export const PER_PAGE_DEFAULT = 20;

/** Query-string parameters of simple lists. Kept as text so a bad value is `invalid_pagination`. */
export const ListQuerystring = Type.Object({
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'page size, integer >= 1' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: 'items to skip, integer >= 0' })),
  filter: Type.Optional(
    Type.String({ maxLength: LIST_FILTER_CHARS_MAX, description: 'JSON filter expression' }),
  ),
  sort: Type.Optional(Type.String({ maxLength: LIST_SORT_CHARS_MAX, description: 'field:asc,other:desc' })),
});

/** Query-string parameters of lists that page but cannot filter or sort (history read from an index). */
export const PageQuerystring = Type.Object({
  limit: Type.Optional(Type.String({ maxLength: 20, description: 'page size, integer >= 1' })),
  offset: Type.Optional(Type.String({ maxLength: 20, description: 'items to skip, integer >= 0' })),
});

/** The JSON body of `POST /v1/<resource>/query`: the same parameters, `filter` as a JSON value. */
export const ListQueryBody = Type.Object({
  filter: Type.Optional(Type.Unknown({ description: 'JSON filter expression' })),
  sort: Type.Optional(Type.String({ maxLength: LIST_SORT_CHARS_MAX, description: 'field:asc,other:desc' })),
  // Numbers, not integers: a fractional value is then `invalid_pagination` like in the query string.
  limit: Type.Optional(Type.Number({ description: 'page size, integer >= 1' })),
  offset: Type.Optional(Type.Number({ description: 'items to skip, integer >= 0' })),
});

/** Query-string parameters of numbered pages (`{pagination, items}` lists). Kept as text, as above. */
export const PageNumberQuerystring = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 20, description: '1-based page number' })),
  per_page: Type.Optional(Type.String({ maxLength: 20, description: 'items per page' })),
});

export interface ListInput {
  limit?: unknown;
  offset?: unknown;
  /** In a query string: the JSON text of the expression. */
  filterText?: string;
  /** In a body: the expression itself. */
  filter?: unknown;
  sort?: unknown;
}

export interface ListParams {
  limit: number;
  offset: number;
  filter: Predicate | undefined;
  sort: SortKey[];
  /** The request's work budget; the filter charges its work to it (list-scan.ts). */
  budget: WorkBudget;
  /** The query engine that compiled the filter and the sort, and ranks the scan (list-scan.ts). */
  query: QueryPort;
}

const INTEGER_TEXT = /^(0|[1-9][0-9]{0,15})$/;

/** A non-negative integer from a query-string text or a JSON number; undefined when it is not one. */
function integerOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v === 'string' && INTEGER_TEXT.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

function pagination(field: string, value: unknown, why: string) {
  return gatewayError('invalid_pagination', { field, value: String(value).slice(0, 32), reason: why });
}

/** `limit` and `offset` (limit=0 or above the cap is invalid_pagination). */
export function parsePage(input: { limit?: unknown; offset?: unknown }, limits: RouteLimits) {
  let limit = limits.listLimitDefault;
  if (input.limit !== undefined) {
    const n = integerOf(input.limit);
    if (n === undefined || n < 1 || n > limits.listLimitMax)
      throw pagination('limit', input.limit, `expected an integer from 1 to ${limits.listLimitMax}`);
    limit = n;
  }
  let offset = 0;
  if (input.offset !== undefined) {
    const n = integerOf(input.offset);
    if (n === undefined || n > LIST_OFFSET_MAX)
      throw pagination('offset', input.offset, `expected an integer from 0 to ${LIST_OFFSET_MAX}`);
    offset = n;
  }
  return { limit, offset };
}

/**
 * Nesting depth of a filter expression, counted as compileFilter counts it (the root is 1, each
 * and/or/not adds one). Stops descending past `cap`, so hostile nesting costs O(cap) stack.
 */
export function filterDepth(expr: unknown, cap: number, depth = 1): number {
  if (depth > cap || typeof expr !== 'object' || expr === null || Array.isArray(expr)) return depth;
  const keys = Object.keys(expr);
  if (keys.length !== 1) return depth;
  const op = keys[0]!;
  const arg = (expr as Record<string, unknown>)[op];
  if (op === 'not') return filterDepth(arg, cap, depth + 1);
  if ((op === 'and' || op === 'or') && Array.isArray(arg)) {
    let deepest = depth;
    for (const e of arg) {
      deepest = Math.max(deepest, filterDepth(e, cap, depth + 1));
      if (deepest > cap) break;
    }
    return deepest;
  }
  return depth;
}

export function parseFilter(
  input: ListInput,
  limits: RouteLimits,
  query: QueryPort,
  budget?: WorkBudget,
): Predicate | undefined {
  let expr = input.filter;
  if (input.filterText !== undefined) {
    try {
      expr = JSON.parse(input.filterText);
    } catch {
      throw gatewayError('invalid_filter', { path: '$', reason: 'not a JSON value' });
    }
  }
  // JSON clients often send `null` for "no value": it means no filter, not a malformed one.
  if (expr === undefined || expr === null) return undefined;
  const cap = Math.min(limits.filterDepthMax, query.filterDepthMax);
  if (filterDepth(expr, cap) > cap)
    throw gatewayError('invalid_filter', { path: '$', reason: `nested deeper than ${cap}` });
  const compiled = query.compileFilter(expr, {
    ...(limits.filterValueCharsMax === undefined ? {} : { valueCharsMax: limits.filterValueCharsMax }),
    ...(budget === undefined ? {} : { meter: budget }),
  });
  if (typeof compiled !== 'function') throw gatewayError('invalid_filter', { ...compiled.details });
  return compiled;
}

/** Sort keys; each key's first segment must be one of `fields` (the item's JSON fields). */
export function parseSortText(text: unknown, fields: readonly string[], query: QueryPort): SortKey[] {
  if (text === undefined || text === '') return [];
  if (typeof text !== 'string') throw gatewayError('invalid_sort', { reason: 'expected a string' });
  const keys = query.parseSort(text);
  if (!Array.isArray(keys)) throw gatewayError('invalid_sort', { ...keys.details });
  const unknown = keys.find((k) => !fields.includes(k.segments[0]!));
  if (unknown !== undefined)
    throw gatewayError('invalid_sort', { sort: text, reason: `unknown field ${unknown.field}`, fields });
  return keys;
}

export function parseListParams(
  input: ListInput,
  limits: RouteLimits,
  fields: readonly string[],
  query: QueryPort,
): ListParams {
  const budget = query.workBudget(limits.workUnitsMax ?? query.workUnitsMax);
  return {
    ...parsePage(input, limits),
    filter: parseFilter(input, limits, query, budget),
    sort: parseSortText(input.sort, fields, query),
    budget,
    query,
  };
}

/** Top-level JSON field names of a struct view (what `sort` may name). */
export function jsonFieldsOf(view: AnyCodec): string[] {
  const d = view.describe(() => 'x');
  return d.kind === 'struct' ? d.fields.map((f) => f.name) : [];
}

export interface NumberedPage {
  page: number;
  perPage: number;
  /** Items before this page: (page - 1) * perPage. */
  offset: number;
}

/** `page` (1-based) and `per_page` (1..listLimitMax, default PER_PAGE_DEFAULT). */
export function parseNumberedPage(input: { page?: unknown; per_page?: unknown }, limits: RouteLimits) {
  let perPage = Math.min(PER_PAGE_DEFAULT, limits.listLimitMax);
  if (input.per_page !== undefined) {
    const n = integerOf(input.per_page);
    if (n === undefined || n < 1 || n > limits.listLimitMax)
      throw pagination('per_page', input.per_page, `expected an integer from 1 to ${limits.listLimitMax}`);
    perPage = n;
  }
  let page = 1;
  if (input.page !== undefined) {
    const n = integerOf(input.page);
    if (n === undefined || n < 1 || (n - 1) * perPage > LIST_OFFSET_MAX)
      throw pagination('page', input.page, 'expected an integer >= 1 within the offset limit');
    page = n;
  }
  return { page, perPage, offset: (page - 1) * perPage } satisfies NumberedPage;
}

/** The `pagination` object of a numbered page; total_pages is 0 for an empty list. */
export function numberedPagination(p: NumberedPage, totalItems: number) {
  return { page: p.page, perPage: p.perPage, totalPages: Math.ceil(totalItems / p.perPage), totalItems };
}
