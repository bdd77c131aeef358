// Filter expressions over the snake_case JSON form of items (reference-notes §6; README.md §Filters):
//   {"and":[e…]} {"or":[e…]} {"not":e}
//   {"eq":["path",v]} ne lt lte gt gte   {"in":["path",[v…]]} nin   {"exists":"path"} {"is_null":"path"}
// Decimal strings and numbers compare numerically; other strings by UTF-16 code units. A missing field
// satisfies only ne, nin and is_null. compileFilter validates once (bounded depth and size) and returns a
// predicate the gateway reuses for list routes and the SSE `filter` parameter.

import { asDecimal, compareDecimals } from './decimal.js';
import { type QueryError, queryError } from './errors.js';
import { parsePath, resolvePath } from './json-path.js';

export const FILTER_DEPTH_MAX = 10;
export const FILTER_NODES_MAX = 256;

export type FilterError = QueryError & { readonly code: 'invalid_filter' };
export type Predicate = (item: unknown) => boolean;

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
export function compareScalars(a: unknown, b: unknown): number | undefined {
  const da = asDecimal(a);
  const db = da === undefined ? undefined : asDecimal(b);
  if (da !== undefined && db !== undefined) return compareDecimals(da, db);
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : a < b ? -1 : 1;
  return undefined;
}

function comparison(op: Comparison, segments: string[], want: unknown): Predicate {
  return (item) => {
    const r = resolvePath(item, segments);
    if (!r.found) return op === 'ne';
    if (op === 'eq') return jsonEquals(r.value, want);
    if (op === 'ne') return !jsonEquals(r.value, want);
    const c = compareScalars(r.value, want);
    if (c === undefined) return false;
    return op === 'lt' ? c < 0 : op === 'lte' ? c <= 0 : op === 'gt' ? c > 0 : c >= 0;
  };
}

class Compiler {
  nodes = 0;

  fail(path: string, why: string): FilterError {
    return queryError('invalid_filter', `filter ${path}: ${why}`, { path, reason: why }) as FilterError;
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
            const r = resolvePath(item, segments);
            return r.found && r.value !== null;
          }
        : (item) => {
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
    return comparison(op, segments, want);
  }

  private membership(op: 'in' | 'nin', arg: unknown, at: string): Predicate | FilterError {
    if (!Array.isArray(arg) || arg.length !== 2 || !Array.isArray(arg[1]))
      return this.fail(at, 'expected ["field", [values]]');
    const segments = parsePath(arg[0]);
    if (segments === undefined) return this.fail(`${at}[0]`, 'expected a field path');
    const values = arg[1] as unknown[];
    this.nodes += values.length;
    if (this.nodes > FILTER_NODES_MAX) return this.fail(`${at}[1]`, `more than ${FILTER_NODES_MAX} nodes`);
    return (item) => {
      const r = resolvePath(item, segments);
      const hit = r.found && values.some((v) => jsonEquals(r.value, v));
      return op === 'in' ? hit : !hit;
    };
  }
}

/** Validates `json` and turns it into a predicate over items' JSON forms, or a FilterError naming the path. */
export function compileFilter(json: unknown): Predicate | FilterError {
  return new Compiler().compile(json, '$', 1);
}
