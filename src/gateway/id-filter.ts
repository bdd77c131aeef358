// Names in place of ids in list filters (model/id-names.ts; users' view in docs/app-api.md): the values a
// filter compares with a field naming an account, an asset definition or an asset are resolved like path
// ids (id-resolver.ts `idText`), at the committed height, before the filter is compiled. Only `eq`, `ne`,
// `in` and `nin` compare ids; ordering comparisons, `exists` and `is_null` are left as they are, and so
// is an expression nested deeper than any filter may be (`depthMax`, the query engine's cap: parseFilter
// refuses it).

import { type IdChain, type IdKind, type IdNameState, idText, tipTimeMs } from './id-resolver.js';
import type { ListInput } from './list.js';

/** Item fields (filter paths) that hold an id, and what they name. */
export type IdFields = Readonly<Record<string, IdKind>>;

type Resolve = (kind: IdKind, text: string) => string;

function rewrite(
  expr: unknown,
  fields: IdFields,
  resolve: Resolve,
  depth: number,
  depthMax: number,
): unknown {
  if (depth > depthMax || typeof expr !== 'object' || expr === null || Array.isArray(expr)) return expr;
  const entries = Object.entries(expr);
  if (entries.length !== 1) return expr;
  const [op, arg] = entries[0]!;
  const next = (e: unknown) => rewrite(e, fields, resolve, depth + 1, depthMax);
  if ((op === 'and' || op === 'or') && Array.isArray(arg)) return { [op]: arg.map(next) };
  if (op === 'not') return { not: next(arg) };
  if (!Array.isArray(arg) || arg.length !== 2 || typeof arg[0] !== 'string') return expr;
  const kind = Object.hasOwn(fields, arg[0]) ? fields[arg[0]] : undefined;
  if (kind === undefined) return expr;
  const value = (v: unknown) => (typeof v === 'string' ? resolve(kind, v) : v);
  if (op === 'eq' || op === 'ne') return { [op]: [arg[0], value(arg[1])] };
  if ((op === 'in' || op === 'nin') && Array.isArray(arg[1])) return { [op]: [arg[0], arg[1].map(value)] };
  return expr;
}

/**
 * The list input with the names its filter compares with `fields` replaced by ids (404 not_found for a
 * name naming nothing). A filter that is not JSON is kept as it is: parseFilter reports it.
 */
export async function filterIds(
  state: IdNameState,
  chain: IdChain,
  input: ListInput,
  fields: IdFields,
  depthMax: number,
): Promise<ListInput> {
  let expr = input.filter;
  if (input.filterText !== undefined) {
    try {
      expr = JSON.parse(input.filterText);
    } catch {
      return input;
    }
  }
  if (expr === undefined || expr === null) return input;
  const filter = await exprIds(state, chain, expr, fields, depthMax);
  const { filterText: _text, ...rest } = input;
  return { ...rest, filter };
}

/**
 * A parsed filter expression with the names it compares with `fields` replaced by ids at the committed
 * height (404 not_found for a name naming nothing); used by list filters and by event filters (streams
 * when they open, stored filters when they are registered).
 */
export async function exprIds(
  state: IdNameState,
  chain: IdChain,
  expr: unknown,
  fields: IdFields,
  depthMax: number,
): Promise<unknown> {
  if (expr === undefined || expr === null) return expr;
  const timeMs = await tipTimeMs(chain);
  return rewrite(expr, fields, (kind, text) => idText(state, kind, text, timeMs), 1, depthMax);
}
