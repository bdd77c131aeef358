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
