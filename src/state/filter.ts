// Filter expressions over the snake_case JSON form of items (README.md §Filters):
//   {"and":[e…]} {"or":[e…]} {"not":e}
//   {"eq":["path",v]} ne lt lte gt gte   {"in":["path",[v…]]} nin   {"exists":"path"} {"is_null":"path"}
// Decimal strings and numbers compare numerically; other strings by UTF-16 code units. A missing field
// satisfies only ne, nin and is_null. compileFilter validates once (bounded depth and size) and returns a
// predicate the gateway reuses for list routes and the SSE `filter` parameter.
//
// Cost: the node cap alone ignores how big the values are, so the expected values'
// canonical keys (canonical-value.ts) are computed once at compile time and their total length is capped
// (`valueCharsMax`). Equality then compares one key per item (`in` / `nin` look it up in a Set), and an
// item's key is never built past the longest expected key. Every evaluation charges its work to an
// optional meter, so callers can stop a scan that exceeds their budget (work-budget.ts).

import { canonicalKey } from './canonical-value.js';
import { asDecimal, compareDecimals, type Decimal } from './decimal.js';
import { type QueryError, queryError } from './errors.js';
import { parsePath, resolvePath } from './json-path.js';

export const FILTER_DEPTH_MAX = 10;
export const FILTER_NODES_MAX = 256;
/** Default cap on the summed canonical size of a filter's values (config `query.filter_value_chars_max`). */
export const FILTER_VALUE_CHARS_MAX = 64 * 1024;

export type FilterError = QueryError & { readonly code: 'invalid_filter' };
export type Predicate = (item: unknown) => boolean;

/** Receives the work an evaluation did: one unit per node visited, plus the characters of keys built. */
export interface WorkMeter {
  charge(units: number): void;
}

export interface FilterOptions {
  /** Cap on the summed canonical size of the expected values (default FILTER_VALUE_CHARS_MAX). */
  readonly valueCharsMax?: number;
  readonly meter?: WorkMeter;
}

const NO_METER: WorkMeter = { charge: () => {} };

const COMPARISONS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'] as const;
type Comparison = (typeof COMPARISONS)[number];

/** Equality on JSON values; decimals by value ("1.50" equals "1.5" and 1.5). */
export function jsonEquals(a: unknown, b: unknown): boolean {
  const da = asDecimal(a);
  const db = da === undefined ? undefined : asDecimal(b);
  if (da !== undefined && db !== undefined) return compareDecimals(da, db) === 0;
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEquals(x, b[i]));
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null || Array.isArray(b))
    return false;
  const ka = Object.keys(a);
  const ob = b as Record<string, unknown>;
  return (
    ka.length === Object.keys(ob).length &&
    ka.every((k) => Object.hasOwn(ob, k) && jsonEquals((a as Record<string, unknown>)[k], ob[k]))
  );
}

/** Order of two scalars, or undefined when they are not comparable (different kinds, objects). */
export function compareScalars(a: unknown, b: unknown, bDecimal = asDecimal(b)): number | undefined {
  const da = asDecimal(a);
  const db = da === undefined ? undefined : bDecimal;
  if (da !== undefined && db !== undefined) return compareDecimals(da, db);
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : a < b ? -1 : 1;
  return undefined;
}

/** The key of an item's value for equality with keys no longer than `charsMax`; undefined: equals none. */
function itemKey(value: unknown, charsMax: number, meter: WorkMeter): string | undefined {
  const k = canonicalKey(value, charsMax);
  meter.charge(k.kind === 'key' ? k.key.length : k.kind === 'too_long' ? k.charsSeen : 1);
  return k.kind === 'key' ? k.key : undefined;
}

function orderedComparison(
  op: Exclude<Comparison, 'eq' | 'ne'>,
  segments: string[],
  want: unknown,
  m: WorkMeter,
) {
  const wantDecimal: Decimal | undefined = asDecimal(want);
  return (item: unknown) => {
    m.charge(1);
    const r = resolvePath(item, segments);
    if (!r.found) return false;
    const c = compareScalars(r.value, want, wantDecimal);
    if (c === undefined) return false;
    return op === 'lt' ? c < 0 : op === 'lte' ? c <= 0 : op === 'gt' ? c > 0 : c >= 0;
  };
}

class Compiler {
  nodes = 0;
  valueChars = 0;
  private readonly valueCharsMax: number;
  readonly meter: WorkMeter;

  constructor(opts: FilterOptions) {
    this.valueCharsMax = opts.valueCharsMax ?? FILTER_VALUE_CHARS_MAX;
    this.meter = opts.meter ?? NO_METER;
  }

  /** The canonical key of an expected value, counted against the filter's value budget. */
  private expectedKey(v: unknown, at: string): string | FilterError {
    const k = canonicalKey(v, this.valueCharsMax - this.valueChars);
    if (k.kind === 'not_json') return this.fail(at, 'expected a JSON value (nested at most 32 deep)');
    if (k.kind === 'too_long')
      return this.fail(at, `values larger than ${this.valueCharsMax} characters in all`, {
        limit: this.valueCharsMax,
      });
    this.valueChars += k.key.length;
    return k.key;
  }

  fail(path: string, why: string, extra: Record<string, unknown> = {}): FilterError {
    return queryError('invalid_filter', `filter ${path}: ${why}`, {
      path,
      reason: why,
      ...extra,
    }) as FilterError;
  }

  compile(e: unknown, path: string, depth: number): Predicate | FilterError {
    if (depth > FILTER_DEPTH_MAX) return this.fail(path, `nested deeper than ${FILTER_DEPTH_MAX}`);
    if (++this.nodes > FILTER_NODES_MAX) return this.fail(path, `more than ${FILTER_NODES_MAX} nodes`);
    if (typeof e !== 'object' || e === null || Array.isArray(e))
      return this.fail(path, 'expected an object with one operator');
    const keys = Object.keys(e);
    if (keys.length !== 1) return this.fail(path, 'expected exactly one operator');
    const op = keys[0]!;
    const arg = (e as Record<string, unknown>)[op];
    const at = `${path}.${op}`;
    if (op === 'and' || op === 'or') return this.logical(op, arg, at, depth);
    const m = this.meter;
    if (op === 'not') {
      const inner = this.compile(arg, at, depth + 1);
      return typeof inner === 'function' ? (item) => !inner(item) : inner;
    }
    if ((COMPARISONS as readonly string[]).includes(op)) return this.comparison(op as Comparison, arg, at);
    if (op === 'in' || op === 'nin') return this.membership(op, arg, at);
    if (op === 'exists' || op === 'is_null') {
      const segments = parsePath(arg);
      if (segments === undefined) return this.fail(at, 'expected a field path');
      return op === 'exists'
        ? (item) => {
            m.charge(1);
            const r = resolvePath(item, segments);
            return r.found && r.value !== null;
          }
        : (item) => {
            m.charge(1);
            const r = resolvePath(item, segments);
            return !r.found || r.value === null;
          };
    }
    return this.fail(at, `unknown operator ${op}`);
  }

  private logical(op: 'and' | 'or', arg: unknown, at: string, depth: number): Predicate | FilterError {
    if (!Array.isArray(arg) || arg.length === 0)
      return this.fail(at, 'expected a non-empty array of expressions');
    const parts: Predicate[] = [];
    for (let i = 0; i < arg.length; i++) {
      const p = this.compile(arg[i], `${at}[${i}]`, depth + 1);
      if (typeof p !== 'function') return p;
      parts.push(p);
    }
    return op === 'and' ? (item) => parts.every((p) => p(item)) : (item) => parts.some((p) => p(item));
  }

  private comparison(op: Comparison, arg: unknown, at: string): Predicate | FilterError {
    if (!Array.isArray(arg) || arg.length !== 2) return this.fail(at, 'expected ["field", value]');
    const segments = parsePath(arg[0]);
    if (segments === undefined) return this.fail(`${at}[0]`, 'expected a field path');
    const want: unknown = arg[1];
    const ordered = op !== 'eq' && op !== 'ne';
    if (ordered && typeof want !== 'string' && !(typeof want === 'number' && Number.isFinite(want))) {
      return this.fail(`${at}[1]`, 'expected a string or a number');
    }
    if (want === undefined) return this.fail(`${at}[1]`, 'expected a JSON value');
    if (op !== 'eq' && op !== 'ne') return orderedComparison(op, segments, want, this.meter);
    const key = this.expectedKey(want, `${at}[1]`);
    if (typeof key !== 'string') return key;
    return this.keyed(op === 'eq', segments, (k) => k === key, key.length);
  }

  /** eq / ne / in / nin: true when the item's key is `hit` (`positive`), or never was (negated). */
  private keyed(positive: boolean, segments: string[], hit: (key: string) => boolean, charsMax: number) {
    const m = this.meter;
    return (item: unknown) => {
      m.charge(1);
      const r = resolvePath(item, segments);
      // A missing field equals nothing: `eq` / `in` fail, `ne` / `nin` pass.
      const key = r.found ? itemKey(r.value, charsMax, m) : undefined;
      const found = key !== undefined && hit(key);
      return positive ? found : !found;
    };
  }

  private membership(op: 'in' | 'nin', arg: unknown, at: string): Predicate | FilterError {
    if (!Array.isArray(arg) || arg.length !== 2 || !Array.isArray(arg[1]))
      return this.fail(at, 'expected ["field", [values]]');
    const segments = parsePath(arg[0]);
    if (segments === undefined) return this.fail(`${at}[0]`, 'expected a field path');
    const values = arg[1] as unknown[];
    this.nodes += values.length;
    if (this.nodes > FILTER_NODES_MAX) return this.fail(`${at}[1]`, `more than ${FILTER_NODES_MAX} nodes`);
    const keys = new Set<string>();
    let longest = 0;
    for (let i = 0; i < values.length; i++) {
      const key = this.expectedKey(values[i], `${at}[1][${i}]`);
      if (typeof key !== 'string') return key;
      keys.add(key);
      longest = Math.max(longest, key.length);
    }
    return this.keyed(op === 'in', segments, (k) => keys.has(k), longest);
  }
}

/** Validates `json` and turns it into a predicate over items' JSON forms, or a FilterError naming the path. */
export function compileFilter(json: unknown, opts: FilterOptions = {}): Predicate | FilterError {
  return new Compiler(opts).compile(json, '$', 1);
}
