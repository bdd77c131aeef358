// Consensus routes (gateway-interface.md "Consensus and runtime endpoints"; reference-notes §7).

import type { RouteDeps } from '../deps.js';
import type { RouteDef } from '../route-table.js';

export function consensusRoutes(_d: RouteDeps): RouteDef[] {
  return [];
}
