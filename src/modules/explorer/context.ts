// What every explorer route table receives: the family's port and the gateway's route dependencies
// (schema registry, limits, errors), plus the fields every explorer route shares.

import type { RouteDeps } from '../../gateway/deps.js';
import { type IdKind, queryIds } from '../../gateway/id-resolver.js';
import { JSON_OR_CODEC } from '../../gateway/routes/app-lists.js';
import type { ExplorerPort } from './port.js';

export interface ExplorerContext {
  port: ExplorerPort;
  deps: RouteDeps;
}

/**
 * The query string with the names in its entity parameters (`fields`) replaced by ids, resolved at the
 * committed height (gateway/id-resolver.ts); unbound name 404, the rest judged by the route's parser.
 */
export function withIds<Q extends Partial<Record<string, string>>>(
  x: ExplorerContext,
  query: Q,
  fields: Readonly<Record<string, IdKind>>,
): Promise<Q> {
  return queryIds(x.port.state, x.port.chain, query, fields);
}

/** The default of `query.work_units_max` (state/work-budget.ts), used when the deps carry none. */
const WORK_UNITS_DEFAULT = 4_000_000;

/** The work budget of one scan (`query.work_units_max`). */
export function workUnitsMax(x: ExplorerContext): number {
  return x.deps.limits.workUnitsMax ?? WORK_UNITS_DEFAULT;
}

/** Fields every explorer route shares (a fresh object each time: no shared mutable arrays). */
export function common() {
  return { tags: ['explorer'], visibility: 'public' as const, formats: JSON_OR_CODEC };
}

/** Latest-N views: `limit` default and cap. */
export const LATEST_LIMIT_DEFAULT = 10;
export const LATEST_LIMIT_MAX = 100;
