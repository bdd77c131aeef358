// A route family as the node composes it ("each family in a folder of its own").
// A family folder (src/<family>/) exports one factory that takes its port and the route dependencies and
// returns a RouteFamily; src/node/families.ts lists the factories, one line each, adapting the node to
// every port. Application families are registered only with `app_api.enabled`; the common, consensus
// and runtime routes are not families of this kind and are always there.

import type { GatewayApp } from './context.js';
import type { RouteDef } from './route-table.js';

export interface RouteFamily {
  /** Short name, as in logs and docs (`app-reads`, `telemetry`). */
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
   * The family whose routes this one's follow in the route table and the OpenAPI document (its last
   * family of that name): a family moved into a ledger module keeps the place its routes always had.
   * Without it, or when no family has that name, the family stays where its list puts it.
   */
  readonly servedAfter?: string;
  /**
   * The families of other names served as part of this one: each follows it right away (in list order,
   * whatever its own `servedAfter`) and publishes under this family's name (OpenAPI `x-ledger-family`,
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
    else guests.set(host, [...(guests.get(host) ?? []), { ...f, name: host.name }]);
  }
  return { rest, guests };
}

/**
 * The families in the order they are served: each one naming `servedAfter` moves right after that
 * family (after those placed there before it, in list order); the others keep their order. A hosted
 * family (`hosts`) is served right after its host, under the host's name.
 */
export function placeFamilies(families: readonly RouteFamily[]): RouteFamily[] {
  const { rest, guests } = hostedBy(families);
  return placeUnhosted(rest).flatMap((f) => [f, ...(guests.get(f) ?? [])]);
}

function placeUnhosted(families: readonly RouteFamily[]): RouteFamily[] {
  const named = (f: RouteFamily) =>
    f.servedAfter !== undefined && families.some((g) => g !== f && g.name === f.servedAfter);
  const out = families.filter((f) => !named(f));
  let pending = families.filter(named);
  while (pending.length > 0) {
    const waiting: RouteFamily[] = [];
    for (const f of pending) {
      let at = out.findLastIndex((g) => g.name === f.servedAfter);
      if (at < 0) {
        waiting.push(f);
        continue;
      }
      while (at + 1 < out.length && out[at + 1]!.servedAfter === f.servedAfter && named(out[at + 1]!)) at++;
      out.splice(at + 1, 0, f);
    }
    // A family following one that follows it back (a cycle) is served at the end, in list order.
    if (waiting.length === pending.length) out.push(...waiting);
    pending = waiting.length === pending.length ? [] : waiting;
  }
  return out;
}
