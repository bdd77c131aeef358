// Aliases in event filters (docs/app-api.md "Aliases in place of ids"): an event filter comparing the
// `account`, `definition` or `asset` field (event-filter.ts EVENT_ALIAS_FIELDS) with an alias is taken
// with the alias replaced by the id it names at the committed height (alias-filter.ts exprIds). Streams
// resolve when they open, webhooks when they are registered: a later rebinding moves neither. The filter
// is checked first, so a malformed one answers 400 invalid_filter whatever its aliases; an alias naming
// nothing is then 404 not_found.

import { exprIds } from './alias-filter.js';
import type { AliasChain, AliasState } from './alias-resolver.js';
import {
  compileEventFilter,
  EVENT_ALIAS_FIELDS,
  type EventFilterResult,
  type EventMatcher,
  FILTER_TEXT_CHARS_MAX,
  parseEventFilter,
} from './event-filter.js';
import type { QueryPort } from './query-port.js';

export interface AliasPorts {
  state: AliasState;
  chain: AliasChain;
  query: QueryPort;
}

export type ResolvedEventFilter =
  | { ok: true; match: EventMatcher; expr: unknown }
  | Extract<EventFilterResult, { ok: false }>;

/** A parsed filter expression, checked, then with its aliases replaced by ids (throws 404 not_found). */
export async function resolveEventFilter(
  ports: AliasPorts,
  expr: unknown,
  depthMax: number,
): Promise<ResolvedEventFilter> {
  const checked = compileEventFilter(expr, depthMax, ports.query);
  if (!checked.ok) return checked;
  if (expr === undefined || expr === null) return { ok: true, match: checked.match, expr: null };
  const resolved = await exprIds(
    ports.state,
    ports.chain,
    expr,
    EVENT_ALIAS_FIELDS,
    ports.query.filterDepthMax,
  );
  const compiled = compileEventFilter(resolved, depthMax, ports.query);
  return compiled.ok ? { ok: true, match: compiled.match, expr: resolved } : compiled;
}

/** Filter text (the SSE `filter` parameter), as resolveEventFilter; absent or blank matches every event. */
export async function resolveEventFilterText(
  ports: AliasPorts,
  text: string | undefined,
  depthMax: number,
): Promise<ResolvedEventFilter> {
  const checked = parseEventFilter(text, depthMax, ports.query);
  if (!checked.ok) return checked;
  if (text === undefined || text.trim() === '' || text.length > FILTER_TEXT_CHARS_MAX)
    return { ok: true, match: checked.match, expr: null };
  return resolveEventFilter(ports, JSON.parse(text), depthMax);
}
