// A query sorted by the field an ordered index keeps (a definition's holders by `value`, on a ledger on
// disk: ordered-index.ts) reads the index in that order and stops once it has offset + limit matches,
// instead of visiting every item: the top 10 of a million holders read about 11 index entries and 10
// rows. Value comparisons in the filter narrow the range read; the filter itself still decides.

import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { parseNumeric } from '../model/numeric.js';
import { asDecimal } from './decimal.js';
import type { QueryError } from './errors.js';
import type { Predicate } from './filter.js';
import type { Item } from './query-sources.js';
import { numericOrderKey } from './state-index-keys.js';
import type { WorkBudget } from './work-budget.js';

/** Items in the index's order, read a few at a time. */
export interface OrderedItems {
  /** Up to `n` next items (fewer: the end); undefined when the index cannot give the order (then scan). */
  take(n: number): Item[] | undefined;
}

/** Inclusive bounds on the order key (state-index-keys.ts `numericOrderKey`). */
export interface ValueBounds {
  from?: Uint8Array;
  to?: Uint8Array;
}

/** Items read per step, at most; the scan yields to the event loop after SLICE_MS of work. */
const STEP_ITEMS_MAX = 256;
const SLICE_MS = 5;

function orderKeyOf(v: unknown): Uint8Array | undefined {
  const d = asDecimal(v);
  if (d === undefined || d.negative) return undefined;
  const n = parseNumeric(d.frac === '' ? d.int : `${d.int}.${d.frac}`);
  return n === undefined ? undefined : numericOrderKey(n);
}

/**
 * Bounds on `field` that every item passing `filter` lies within: from its top-level comparisons
 * (`gt`/`gte`/`lt`/`lte`/`eq` on the field, alone or in a top-level `and`). A bound that is not a
 * non-negative decimal of at most 28 fraction digits is left out (the range is then wider, never narrower).
 */
export function valueBounds(filter: unknown, field: string): ValueBounds {
  const out: ValueBounds = {};
  const terms =
    typeof filter === 'object' && filter !== null && Array.isArray((filter as { and?: unknown }).and)
      ? ((filter as { and: unknown[] }).and as unknown[])
      : [filter];
  const higher = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) > 0;
  for (const t of terms) {
    if (typeof t !== 'object' || t === null) continue;
    const entries = Object.entries(t);
    if (entries.length !== 1) continue;
    const [op, args] = entries[0]!;
    if (!Array.isArray(args) || args.length !== 2 || args[0] !== field) continue;
    const key = orderKeyOf(args[1]);
    if (key === undefined) continue;
    if ((op === 'gt' || op === 'gte' || op === 'eq') && (out.from === undefined || higher(key, out.from)))
      out.from = key;
    if ((op === 'lt' || op === 'lte' || op === 'eq') && (out.to === undefined || higher(out.to, key)))
      out.to = key;
  }
  return out;
}

/**
 * References of the first `keep` items (all, without `keep`) that pass `predicate`, in the index's
 * order, within `budget`; undefined when the index cannot give the order (the caller scans instead).
 */
export async function orderedScan(
  items: OrderedItems,
  predicate: Predicate | undefined,
  budget: WorkBudget,
  scanUnits: number,
  keep: number | undefined,
): Promise<unknown[] | QueryError | undefined> {
  const refs: unknown[] = [];
  const seen = new Set<string>();
  let visited = 0;
  let step = 0;
  let sliceStart = performance.now();
  for (;;) {
    const left = keep === undefined ? STEP_ITEMS_MAX : keep - refs.length;
    if (left <= 0) return refs;
    // Without a filter every item counts: read exactly what is left. With one, read more each step.
    step =
      predicate === undefined
        ? Math.min(STEP_ITEMS_MAX, left)
        : Math.min(STEP_ITEMS_MAX, Math.max(left, 2 * step));
    const batch = items.take(step);
    if (batch === undefined) return undefined;
    for (const item of batch) {
      visited++;
      budget.charge(scanUnits);
      // A row that moved while the scan yielded can come back at its new place: kept once.
      if (!seen.has(item.tie) && (predicate === undefined || predicate(item.json()))) {
        seen.add(item.tie);
        refs.push(item.ref);
        if (keep !== undefined && refs.length === keep) return refs;
      }
      if (budget.exceeded) return budget.error(visited);
    }
    if (batch.length < step) return refs;
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
  }
}
