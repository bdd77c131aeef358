// The subscriptions family: reads of plans and subscriptions. It is served at its rank (`servedAt`,
// docs/design/modules.md "Serving order"), where the core served it before it became a module (the
// OpenAPI document keeps its order).
// It hosts the triggers module's family (gateway/family.ts `hosts`): the trigger routes, on which the
// billing runs are built, were served in this family before either feature was a module, so they still
// follow its routes and publish under its name (`x-ledger-family: subscriptions`, the capabilities'
// feature `subscriptions`).

import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { SubscriptionsPort } from './port.js';
import { subscriptionsRoutes } from './routes.js';

export function subscriptionsFamily(port: SubscriptionsPort, deps: RouteDeps): RouteFamily {
  return {
    name: 'subscriptions',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 210,
    hosts: ['triggers'],
    routes: () => subscriptionsRoutes(deps, port),
  };
}
