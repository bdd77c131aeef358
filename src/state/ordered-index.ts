// Walking one parent's range of an ordered index in the state store (state-index-keys.ts: prefix ‖ order
// key ‖ child id) in value order, ascending or descending, ties by child id ascending (the query sort's
// tie-break), merged with the changes of blocks not yet durable. It reads only the entries it returns
// (plus one per value group in descending order): a top-10 of a million holders reads about 11 entries.

import { assert } from '../util/assert.js';
import { compareBytes } from '../util/hex.js';
import { ORDER_KEY_BYTES } from './state-index-keys.js';
import type { OrderedEntry } from './tables.js';

/** A store that reads key ranges in either direction. */
export interface RangeReader {
  /** Entries with start ≤ key < end, ascending by key bytes, or descending with `reverse`. */
  range(
    start: Uint8Array,
    end: Uint8Array,
    reverse: boolean,
  ): Iterable<{ key: Uint8Array; value: Uint8Array }>;
}

/** One place in the walk: a child at its order key. */
export interface OrderedStep {
  readonly key: Uint8Array;
  readonly child: string;
}

export interface OrderedWalk {
  readonly descending: boolean;
  /** Inclusive bounds on the order key. */
  readonly from?: Uint8Array;
  readonly to?: Uint8Array;
  /** Resume after this step (the last one a previous walk returned). */
  readonly after?: OrderedStep;
  /** At most this many steps; fewer when the range ends. */
  readonly max: number;
}

/** Changes of blocks not yet durable, by child: its entry now (undefined: none). */
export type PendingOrder = ReadonlyMap<string, { readonly value: OrderedEntry | undefined }>;

/** A descending walk buffers at most this many children of one value before reading that value forward. */
export const GROUP_BUFFER_MAX = 256;

/** As in disk-table-store.ts: a character whose byte order and code-unit order disagree. */
const HIGH_BMP = /[\uE000-\uFFFF]/;
const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The first key after every key that starts with `prefix`. */
function rangeEnd(prefix: Uint8Array): Uint8Array {
  let last = prefix.length - 1;
  while (last >= 0 && prefix[last] === 0xff) last--;
  assert(last >= 0, 'ordered index: a prefix of 0xff bytes');
  const end = prefix.slice(0, last + 1);
  end[last]! += 1;
  return end;
}

/** UTF-8 never holds 0xff: `prefix ‖ key ‖ 0xff` lies after every child at `key`, before the next key. */
const AFTER_CHILDREN = Uint8Array.of(0xff);

interface Entry extends OrderedStep {
  readonly full: Uint8Array;
}

/**
 * Up to `w.max` children of the ordered range under `prefix`, in walk order; undefined when a child id
 * holds a character whose UTF-8 order differs from its code-unit order (the caller then sorts).
 */
export function walkOrdered(
  reader: RangeReader,
  prefix: Uint8Array,
  pending: PendingOrder | undefined,
  w: OrderedWalk,
): OrderedStep[] | undefined {
  assert(Number.isSafeInteger(w.max) && w.max >= 0, `ordered walk of ${w.max}`);
  const parsed = (full: Uint8Array): Entry | undefined => {
    if (full.length <= prefix.length + ORDER_KEY_BYTES) return undefined;
    let child: string;
    try {
      child = utf8Strict.decode(full.subarray(prefix.length + ORDER_KEY_BYTES));
    } catch {
      return undefined;
    }
    return { full, key: full.slice(prefix.length, prefix.length + ORDER_KEY_BYTES), child };
  };
  const added: Entry[] = [];
  if (pending !== undefined)
    for (const [child, p] of pending)
      if (p.value !== undefined) {
        const full = concat(prefix, p.value.key, utf8.encode(child));
        added.push({ full, key: p.value.key, child });
      }
  added.sort((a, b) => compareBytes(a.full, b.full));
  /** The range [start, end) in one direction: the store's entries of unchanged children and the pending ones. */
  function* merged(start: Uint8Array, end: Uint8Array, reverse: boolean): Generator<Entry> {
    const inRange = added.filter((e) => compareBytes(e.full, start) >= 0 && compareBytes(e.full, end) < 0);
    if (reverse) inRange.reverse();
    let i = 0;
    for (const { key } of reader.range(start, end, reverse)) {
      const e = parsed(key);
      if (e === undefined || pending?.has(e.child)) continue;
      while (i < inRange.length && compareBytes(inRange[i]!.full, e.full) < 0 !== reverse)
        yield inRange[i++]!;
      yield e;
    }
    while (i < inRange.length) yield inRange[i++]!;
  }
  const out: OrderedStep[] = [];
  /** Adds `e`; false when the walk must stop (full, or an id the byte order cannot place). */
  let unordered = false;
  const emit = (e: Entry): boolean => {
    if (HIGH_BMP.test(e.child)) {
      unordered = true;
      return false;
    }
    out.push({ key: e.key, child: e.child });
    return out.length < w.max;
  };
  const forward = (start: Uint8Array, end: Uint8Array): boolean => {
    for (const e of merged(start, end, false)) if (!emit(e)) return false;
    return true;
  };
  if (w.max === 0) return out;
  const lo = w.from === undefined ? prefix : concat(prefix, w.from);
  let hi = w.to === undefined ? rangeEnd(prefix) : concat(prefix, w.to, AFTER_CHILDREN);
  const afterFull = w.after && concat(prefix, w.after.key, utf8.encode(w.after.child), Uint8Array.of(0));
  if (!w.descending) {
    const start = afterFull !== undefined && compareBytes(afterFull, lo) > 0 ? afterFull : lo;
    forward(start, hi);
    return unordered ? undefined : out;
  }
  if (w.after !== undefined) {
    // The rest of the value the last walk stopped in, then the values below it.
    const groupEnd = concat(prefix, w.after.key, AFTER_CHILDREN);
    if (!forward(afterFull!, compareBytes(groupEnd, hi) < 0 ? groupEnd : hi))
      return unordered ? undefined : out;
    const groupStart = concat(prefix, w.after.key);
    if (compareBytes(groupStart, hi) < 0) hi = groupStart;
  }
  // Values from the top: each value's children come back descending and are handed out ascending.
  for (;;) {
    let group: Entry[] = [];
    let overflow: Uint8Array | undefined;
    for (const e of merged(lo, hi, true)) {
      if (group.length > 0 && compareBytes(group[0]!.key, e.key) !== 0) {
        for (let i = group.length - 1; i >= 0; i--) if (!emit(group[i]!)) return unordered ? undefined : out;
        group = [];
      }
      group.push(e);
      if (group.length > GROUP_BUFFER_MAX) {
        overflow = group[0]!.key;
        break;
      }
    }
    if (overflow === undefined) {
      for (let i = group.length - 1; i >= 0; i--) if (!emit(group[i]!)) return unordered ? undefined : out;
      return unordered ? undefined : out;
    }
    // A value held by many: its children are read forward from its start.
    const groupStart = concat(prefix, overflow);
    if (!forward(groupStart, concat(prefix, overflow, AFTER_CHILDREN))) return unordered ? undefined : out;
    hi = groupStart;
  }
}
