// A route family as the node composes it ("each family in a folder of its own").
// A family folder (src/<family>/) exports one factory that takes its port and the route dependencies and
// returns a RouteFamily; src/node/families.ts lists the factories, one line each, adapting the node to
// every port. Application families are registered only with `app_api.enabled`; the common, consensus
// and runtime routes are not families of this kind and are always there.

import type { GatewayApp } from './context.js';
import type { RouteDef } from './route-table.js';

export interface RouteFamily {
  /** Short name, as in logs and docs (`webhooks`, `explorer`). */
  readonly name: string;
  /** Part of the application API: absent (not registered, not documented) without `app_api.enabled`. */
  readonly app: boolean;
  /** The family's HTTP routes; called once, after the server exists and before it listens. */
  routes(app: GatewayApp): readonly RouteDef[];
  /** Anything else it installs on the server (WebSocket routes, body parsers, metrics); once. */
  install?(app: GatewayApp): void;
  /** Stops its workers and closes its stores when the server closes. */
  close?(): Promise<void>;
}

/** A route family and, when placed, the family (by name) it follows in the served interface. */
export interface PlacedFamily {
  readonly family: RouteFamily;
  readonly after?: string | undefined;
}

/**
 * `families` with each placed family mounted right after the last family named `after` and after any
 * placed there before it, so that placed families keep their given order. The order of the list is the
 * order of the served OpenAPI paths, which clients and the compatibility test see. A family placed after
 * another placed family is mounted once that one is; a family whose anchor never appears (a family the
 * configuration left out), or that has no `after`, goes last.
 */
export function mountFamilies(
  families: readonly RouteFamily[],
  placed: readonly PlacedFamily[],
): RouteFamily[] {
  const out = [...families];
  const anchorOf = new Map<RouteFamily, string>();
  let pending = [...placed];
  while (pending.length > 0) {
    const waiting: PlacedFamily[] = [];
    for (const p of pending) {
      let at = p.after === undefined ? -1 : out.findLastIndex((f) => f.name === p.after);
      if (at < 0) {
        waiting.push(p);
        continue;
      }
      while (at + 1 < out.length && anchorOf.get(out[at + 1]!) === p.after) at++;
      out.splice(at + 1, 0, p.family);
      anchorOf.set(p.family, p.after!);
    }
    if (waiting.length === pending.length) {
      out.push(...waiting.map((p) => p.family));
      break;
    }
    pending = waiting;
  }
  return out;
}
