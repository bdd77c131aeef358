// The subscriptions family: reads of plans and subscriptions.

import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { SubscriptionsPort } from './port.js';
import { subscriptionsRoutes } from './routes.js';

export function subscriptionsFamily(port: SubscriptionsPort, deps: RouteDeps): RouteFamily {
  return { name: 'subscriptions', app: true, routes: () => subscriptionsRoutes(deps, port) };
}
