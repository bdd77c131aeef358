// Application read routes (gateway-interface.md "Application route families"; reference-notes §6, §12).

import type { RouteDeps } from '../deps.js';
import type { RouteDef } from '../route-table.js';

export function appRoutes(_d: RouteDeps): RouteDef[] {
  return [];
}
