// Names in place of ids in event filters (model/id-names.ts; users' view in docs/app-api.md): an event
// filter comparing the `account`, `definition` or `asset` field (event-filter.ts EVENT_ID_FIELDS) with a
// name is taken with the name replaced by the id it names at the committed height (id-filter.ts
// exprIds). Streams resolve when they open, stored filters when they are registered: a later rebinding moves
// neither. The filter is checked first, so a malformed one answers 400 invalid_filter whatever its
// names; a name naming nothing is then 404 not_found.

import {
  compileEventFilter,
  EVENT_ID_FIELDS,
  type EventFilterResult,
  type EventMatcher,
  FILTER_TEXT_CHARS_MAX,
  parseEventFilter,
} from './event-filter.js';
import { exprIds } from './id-filter.js';
import type { IdChain, IdNameState } from './id-resolver.js';
import type { QueryPort } from './query-port.js';

export interface IdPorts {
  state: IdNameState;
  chain: IdChain;
  query: QueryPort;
}

export type ResolvedEventFilter =
  | { ok: true; match: EventMatcher; expr: unknown }
  | Extract<EventFilterResult, { ok: false }>;

/** A parsed filter expression, checked, then with its names replaced by ids (throws 404 not_found). */
export async function resolveEventFilter(
  ports: IdPorts,
  expr: unknown,
  depthMax: number,
): Promise<ResolvedEventFilter> {
  const checked = compileEventFilter(expr, depthMax, ports.query);
  if (!checked.ok) return checked;
  if (expr === undefined || expr === null) return { ok: true, match: checked.match, expr: null };
  const resolved = await exprIds(ports.state, ports.chain, expr, EVENT_ID_FIELDS, ports.query.filterDepthMax);
  const compiled = compileEventFilter(resolved, depthMax, ports.query);
  return compiled.ok ? { ok: true, match: compiled.match, expr: resolved } : compiled;
}

/** Filter text (the SSE `filter` parameter), as resolveEventFilter; absent or blank matches every event. */
export async function resolveEventFilterText(
  ports: IdPorts,
  text: string | undefined,
  depthMax: number,
): Promise<ResolvedEventFilter> {
  const checked = parseEventFilter(text, depthMax, ports.query);
  if (!checked.ok) return checked;
  if (text === undefined || text.trim() === '' || text.length > FILTER_TEXT_CHARS_MAX)
    return { ok: true, match: checked.match, expr: null };
  return resolveEventFilter(ports, JSON.parse(text), depthMax);
}
