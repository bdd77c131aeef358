// A route family as the node composes it ("each family in a folder of its own").
// A family folder (src/<family>/) exports one factory that takes its port and the route dependencies and
// returns a RouteFamily; src/node/families.ts lists the factories, one line each, adapting the node to
// every port. Application families are registered only with `app_api.enabled`; the common, consensus
// and runtime routes are not families of this kind and are always there.

import type { GatewayApp } from './context.js';
import type { RouteDef } from './route-table.js';

export interface RouteFamily {
  /** Short name, as in logs and docs (`app-reads`, `policy`). */
  readonly name: string;
  /** Part of the application API: absent (not registered, not documented) without `app_api.enabled`. */
  readonly app: boolean;
  /** The family's HTTP routes; called once, after the server exists and before it listens. */
  routes(app: GatewayApp): readonly RouteDef[];
  /** Anything else it installs on the server (WebSocket routes, body parsers, metrics); once. */
  install?(app: GatewayApp): void;
  /** Stops its workers and closes its stores when the server closes. */
  close?(): Promise<void>;
  /**
   * Its place in the route table and the OpenAPI document: families are served in ascending `servedAt`
   * (equal ranks in list order), so a family moved into a ledger module keeps the place its routes always
   * had by keeping its number, and no family names another to find its place. Ranks leave gaps, like the
   * tag tables, so a new family takes a free number between two others; the ranks in use are the table
   * of docs/design/modules.md "Serving order" (checked against a served node by
   * test/project/serving-order.test.ts).
   */
  readonly servedAt: number;
  /**
   * The families of other names served as part of this one: each follows it right away (in list order,
   * whatever its own `servedAt`) and publishes under this family's name (OpenAPI `x-ledger-family`,
   * the capabilities' features), e.g. a module's routes kept in the family its users know them by. A
   * family hosted by none keeps its own name.
   */
  readonly hosts?: readonly string[];
}

/** `families` with each hosted one (another's `hosts` names it) taken out and kept by its host. */
function hostedBy(families: readonly RouteFamily[]): {
  rest: RouteFamily[];
  guests: Map<RouteFamily, RouteFamily[]>;
} {
  const guests = new Map<RouteFamily, RouteFamily[]>();
  const rest: RouteFamily[] = [];
  for (const f of families) {
    const host = families.find((h) => h !== f && (h.hosts ?? []).includes(f.name));
    if (host === undefined) rest.push(f);
    else guests.set(host, [...(guests.get(host) ?? []), { ...f, name: host.name, servedAt: host.servedAt }]);
  }
  return { rest, guests };
}

/**
 * The families in the order they are served: ascending `servedAt`, equal ranks in list order. A hosted
 * family (`hosts`) is served right after its host, under the host's name and at its rank (its own rank
 * serves only when no family hosts it).
 */
export function placeFamilies(families: readonly RouteFamily[]): RouteFamily[] {
  const { rest, guests } = hostedBy(families);
  return rest
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.servedAt - b.f.servedAt || a.i - b.i)
    .flatMap(({ f }) => [f, ...(guests.get(f) ?? [])]);
}
