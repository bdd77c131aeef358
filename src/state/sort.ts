// Sorting query items: `field:asc,other:desc`, at most SORT_KEYS_MAX keys, direction
// optional (asc). Decimals compare numerically, strings by UTF-16 code units; missing and null values
// go last in either direction. Ties are broken by the item's id, so the order is total and the same on
// every node whatever order the items were collected in.

import type { Json } from '../codec/codec.js';
import { canonicalJson } from '../codec/json.js';
import { asDecimal, compareDecimals } from './decimal.js';
import { type QueryError, queryError } from './errors.js';
import { parsePath, resolvePath } from './json-path.js';

export const SORT_KEYS_MAX = 4;

export interface SortKey {
  readonly field: string;
  readonly segments: readonly string[];
  readonly descending: boolean;
}

export type SortError = QueryError & { readonly code: 'invalid_sort' };

function sortError(text: string, why: string): SortError {
  return queryError('invalid_sort', `sort ${JSON.stringify(text)}: ${why}`, {
    sort: text,
    reason: why,
  }) as SortError;
}

export function parseSort(text: string): SortKey[] | SortError {
  const parts = text.split(',');
  if (parts.length > SORT_KEYS_MAX) return sortError(text, `at most ${SORT_KEYS_MAX} keys`);
  const keys: SortKey[] = [];
  for (const part of parts) {
    const [field = '', direction = 'asc', ...rest] = part.trim().split(':');
    const segments = parsePath(field);
    if (segments === undefined || rest.length > 0) return sortError(text, `bad key ${JSON.stringify(part)}`);
    if (direction !== 'asc' && direction !== 'desc')
      return sortError(text, `direction must be asc or desc, not ${direction}`);
    if (keys.some((k) => k.field === field)) return sortError(text, `field ${field} appears twice`);
    keys.push({ field, segments, descending: direction === 'desc' });
  }
  return keys;
}

/** A value reduced to what sorting needs: a rank (kind) and something comparable within the rank. */
export type SortValue =
  | { rank: 0; d: NonNullable<ReturnType<typeof asDecimal>> }
  | { rank: 1 | 2 | 3; s: string }
  | { rank: 4 };

function sortValue(item: unknown, key: SortKey): SortValue {
  const r = resolvePath(item, key.segments);
  if (!r.found || r.value === null || r.value === undefined) return { rank: 4 };
  const d = asDecimal(r.value);
  if (d !== undefined) return { rank: 0, d };
  if (typeof r.value === 'string') return { rank: 1, s: r.value };
  if (typeof r.value === 'boolean') return { rank: 2, s: r.value ? '1' : '0' };
  return { rank: 3, s: canonicalJson(r.value as Json) };
}

function compareSortValues(a: SortValue, b: SortValue, descending: boolean): number {
  if (a.rank === 4 || b.rank === 4) return a.rank === b.rank ? 0 : a.rank === 4 ? 1 : -1;
  let c: number;
  if (a.rank !== b.rank) c = a.rank - b.rank;
  else if (a.rank === 0) c = compareDecimals(a.d, (b as typeof a).d);
  else {
    const sa = a.s;
    const sb = (b as { s: string }).s;
    c = sa === sb ? 0 : sa < sb ? -1 : 1;
  }
  return descending ? -c : c;
}

/** What sorting needs of one item: its sort values and its tie-break key. */
export interface SortEntry<T> {
  readonly item: T;
  readonly tie: string;
  readonly values: readonly SortValue[];
}

export function sortEntry<T>(item: T, json: unknown, tie: string, keys: readonly SortKey[]): SortEntry<T> {
  return { item, tie, values: keys.map((k) => sortValue(json, k)) };
}

export function compareEntries<T>(a: SortEntry<T>, b: SortEntry<T>, keys: readonly SortKey[]): number {
  for (let i = 0; i < keys.length; i++) {
    const c = compareSortValues(a.values[i]!, b.values[i]!, keys[i]!.descending);
    if (c !== 0) return c;
  }
  return a.tie === b.tie ? 0 : a.tie < b.tie ? -1 : 1;
}

/**
 * Sorts `items` by `keys` over `jsonOf(item)`, ties by `tieOf(item)` ascending. Each item's sort values are
 * computed once (decorate, sort, undecorate).
 */
export function sortItems<T>(
  items: readonly T[],
  keys: readonly SortKey[],
  jsonOf: (t: T) => unknown,
  tieOf: (t: T) => string,
): T[] {
  const decorated = items.map((item) => sortEntry(item, jsonOf(item), tieOf(item), keys));
  decorated.sort((a, b) => compareEntries(a, b, keys));
  return decorated.map((d) => d.item);
}
