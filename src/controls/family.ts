// The transfer controls family: read routes over the ledger's control rows.

import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { ControlsPort } from './port.js';
import { controlRoutes } from './routes.js';

export function controlsFamily(port: ControlsPort, deps: RouteDeps): RouteFamily {
  return { name: 'controls', app: true, routes: () => controlRoutes(deps, port) };
}
