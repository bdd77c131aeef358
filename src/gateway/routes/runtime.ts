// Runtime routes (gateway-interface.md "Consensus and runtime endpoints"; reference-notes §8).

import type { RouteDeps } from '../deps.js';
import type { RouteDef } from '../route-table.js';

export function runtimeRoutes(_d: RouteDeps): RouteDef[] {
  return [];
}
