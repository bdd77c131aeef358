// The subscriptions family: reads of plans and subscriptions. It is served right after the ledger-proofs
// family, where the core served it before it became a module (the OpenAPI document keeps its order).

import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { SubscriptionsPort } from './port.js';
import { subscriptionsRoutes } from './routes.js';

export function subscriptionsFamily(port: SubscriptionsPort, deps: RouteDeps): RouteFamily {
  return {
    name: 'subscriptions',
    app: true,
    servedAfter: 'ledger-proofs',
    routes: () => subscriptionsRoutes(deps, port),
  };
}
