// Answering one list page at a cost that grows with the page, not the table (docs/security.md "Reads:
// bounded cost"):
//
// - Without filter and sort, the page is cut from the id list first and only its items are read and
//   turned into JSON: O(offset-free page) whatever the table holds. A source that can count its items
//   and read its first ids alone (a definition's holders on disk) is not listed at all: `total` is its
//   count and the page its first offset + limit ids.
// - With a filter or a sort every item must be looked at, so the scan charges a work budget (one
//   `ITEM_SCAN_UNITS` per item plus the filter's own work) and stops with 422 `query_budget_exceeded`
//   when it is spent; it also yields to the event loop every `SLICE_MS`, so `/health` and other clients
//   are answered while a long scan runs. Only the first offset + limit matches are kept (the query
//   port's `top`: ids and sort values); the page's items are read again at the end (an item deleted
//   meanwhile is left out).

import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { gatewayError } from './errors.js';
import type { ListParams } from './list.js';
import type { TopIds, WorkBudget } from './query-port.js';

/** Work units charged per item scanned: reading it and building its JSON form cost about 16 key chars. */
export const ITEM_SCAN_UNITS = 16;
/** Longest run of scanning between two yields to the event loop (checked every SLICE_CHECK_ITEMS). */
export const SLICE_MS = 1;
const SLICE_CHECK_ITEMS = 16;

/**
 * At most `max` filtered or sorted scans run at once on a node; more wait their turn. Each running scan
 * takes one slice per turn of the event loop, so this bounds how long /health waits between two turns
 * (8 concurrent scans of 42k rows held it ~100 ms on a loaded machine). Unfiltered pages never wait.
 */
export class ScanGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  async run<T>(scan: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await scan();
    } finally {
      // Hand the slot straight to the next waiter, or give it back.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}

/** Where a list's items come from: ids in ascending order, and each item read on demand. */
export interface ListSource<T> {
  /** Ids in ascending code-unit order (a snapshot; not changed by the caller). */
  ids(): readonly string[];
  /** The item with this id now, or undefined when it is gone. */
  get(id: string): T | undefined;
  /** As `get`, without copying the state's row: for items that are only turned into JSON by a scan. */
  peek?(id: string): T | undefined;
  /** How many ids `ids()` would give, without listing them (with `firstIds`). */
  count?(): number;
  /** The first `n` of `ids()`, read alone; undefined when they cannot be told without all of them. */
  firstIds?(n: number): readonly string[] | undefined;
}

/** A source over items already in memory (small per-parent lists). */
export function arraySource<T>(items: readonly T[], idOf: (t: T) => string): ListSource<T> {
  const byId = new Map(items.map((t) => [idOf(t), t] as const));
  const ids = [...byId.keys()].sort();
  return { ids: () => ids, get: (id) => byId.get(id) };
}

function present<T>(source: ListSource<T>, ids: readonly string[]): T[] {
  const out: T[] = [];
  for (const id of ids) {
    const t = source.get(id);
    if (t !== undefined) out.push(t);
  }
  return out;
}

/** Filters, sorts and pages `source`; `jsonOf` gives the item's JSON form (what filter and sort see). */
export async function scanList<T>(
  source: ListSource<T>,
  p: ListParams,
  jsonOf: (t: T) => unknown,
  gate?: ScanGate,
): Promise<{ items: T[]; total: number }> {
  if (p.filter === undefined && p.sort.length === 0) {
    const first = source.count === undefined ? undefined : source.firstIds?.(p.offset + p.limit);
    if (first !== undefined) return { items: present(source, first.slice(p.offset)), total: source.count!() };
    const ids = source.ids();
    return { items: present(source, ids.slice(p.offset, p.offset + p.limit)), total: ids.length };
  }
  const ids = source.ids();
  const scan = () => matching(source, ids, p, jsonOf);
  const { top, total } = await (gate === undefined ? scan() : gate.run(scan));
  return { items: present(source, top.sorted().slice(p.offset, p.offset + p.limit)), total };
}

async function matching<T>(
  source: ListSource<T>,
  ids: readonly string[],
  p: ListParams,
  jsonOf: (t: T) => unknown,
): Promise<{ top: TopIds; total: number }> {
  const budget: WorkBudget = p.budget;
  // Only the first offset + limit matches in order are kept (ties by id make the order total).
  const top = p.query.top(p.offset + p.limit, p.sort);
  let total = 0;
  const read = source.peek ?? source.get;
  let sliceStart = performance.now();
  for (let i = 0; i < ids.length; i++) {
    if (i % SLICE_CHECK_ITEMS === 0 && performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    budget.charge(ITEM_SCAN_UNITS);
    const id = ids[i]!;
    const item = read(id);
    if (item === undefined) continue;
    const json = jsonOf(item);
    if (p.filter === undefined || p.filter(json)) {
      total++;
      top.offer(json, id);
    }
    if (budget.exceeded) {
      const e = budget.error(i + 1);
      throw gatewayError('query_budget_exceeded', { ...e.details });
    }
  }
  return { top, total };
}
