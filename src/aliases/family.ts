// The aliases family: resolution routes over the ledger's alias tables.

import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { AliasPort } from './port.js';
import { aliasRoutes } from './routes.js';

export function aliasFamily(port: AliasPort, deps: RouteDeps): RouteFamily {
  return { name: 'aliases', app: true, routes: () => aliasRoutes(deps, port) };
}
