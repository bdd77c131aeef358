// The ledger's query engine as the gateway's QueryPort (gateway/query-port.ts): filter expressions,
// sort keys, work budgets and the top-k of a sorted scan, from state/.

import type { QueryPort, TopIds } from '../gateway/query-port.js';
import { compileFilter, FILTER_DEPTH_MAX } from '../state/filter.js';
import { compareEntries, parseSort, type SortEntry, type SortKey, sortEntry } from '../state/sort.js';
import { TopK } from '../state/top-k.js';
import { QUERY_WORK_UNITS_MAX, WorkBudget } from '../state/work-budget.js';

function top(k: number, keys: readonly SortKey[]): TopIds {
  const heap = new TopK<SortEntry<undefined>>(k, (a, b) => compareEntries(a, b, keys));
  return {
    offer: (json, id) => heap.offer(sortEntry(undefined, json, id, keys)),
    sorted: () => heap.sorted().map((e) => e.tie),
  };
}

export const QUERY_LANGUAGE: QueryPort = Object.freeze({
  filterDepthMax: FILTER_DEPTH_MAX,
  workUnitsMax: QUERY_WORK_UNITS_MAX,
  compileFilter: (expr: unknown, opts?: Parameters<QueryPort['compileFilter']>[1]) =>
    compileFilter(expr, opts),
  parseSort: (text: string) => parseSort(text),
  workBudget: (units: number) => new WorkBudget(units),
  top,
});
