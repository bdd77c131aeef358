// Canonical keys of JSON values for filter equality: two values are jsonEquals
// exactly when their keys are the same string, so a filter computes each expected value's key once and
// compares an item's value by one string comparison (`in` becomes a Set lookup) instead of re-walking
// every expected value for every item. Decimals ("1.50", "1.5", 1.5) share one key, as jsonEquals says.
//
// Building a key stops as soon as it grows past `charsMax`: an item value longer than every expected
// value cannot equal any of them, so its cost is bounded by the filter, not by what the item holds.

import { asDecimal } from './decimal.js';

/** Deepest nesting of a filter value (the codec allows 32; a deeper value cannot equal a stored one). */
export const FILTER_VALUE_DEPTH_MAX = 32;

class TooLong {}
const TOO_LONG = new TooLong();

class KeyWriter {
  readonly parts: string[] = [];
  length = 0;
  constructor(private readonly charsMax: number) {}

  push(s: string): void {
    this.length += s.length;
    if (this.length > this.charsMax) throw TOO_LONG;
    this.parts.push(s);
  }
}

function write(w: KeyWriter, v: unknown, depth: number): boolean {
  if (depth > FILTER_VALUE_DEPTH_MAX) return false;
  const d = asDecimal(v);
  if (d !== undefined) {
    w.push(`n${d.negative ? '-' : ''}${d.int}.${d.frac};`);
    return true;
  }
  if (typeof v === 'string') w.push(`s${v.length}:${v}`);
  else if (typeof v === 'number') w.push(`f${String(v)};`);
  else if (typeof v === 'boolean') w.push(v ? 't' : 'b');
  else if (v === null) w.push('z');
  else if (Array.isArray(v)) {
    w.push(`[${v.length}:`);
    for (const x of v) if (!write(w, x, depth + 1)) return false;
  } else if (typeof v === 'object') {
    // Object equality ignores key order: keys in code-unit order make the key order-free.
    const keys = Object.keys(v).sort();
    w.push(`{${keys.length}:`);
    for (const k of keys) {
      w.push(`${k.length}:${k}`);
      if (!write(w, (v as Record<string, unknown>)[k], depth + 1)) return false;
    }
  } else return false;
  return true;
}

export type KeyResult =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'too_long'; readonly charsSeen: number }
  | { readonly kind: 'not_json' };

/** The canonical key of `v`, or why there is none (longer than `charsMax`, not a JSON value, too deep). */
export function canonicalKey(v: unknown, charsMax: number): KeyResult {
  const w = new KeyWriter(charsMax);
  try {
    return write(w, v, 1) ? { kind: 'key', key: w.parts.join('') } : { kind: 'not_json' };
  } catch (e) {
    if (e === TOO_LONG) return { kind: 'too_long', charsSeen: w.length };
    throw e;
  }
}
