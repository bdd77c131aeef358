// Event and block streams (gateway-interface.md "Events"; reference-notes §5).

import type { GatewayApp } from '../context.js';
import type { RouteDeps } from '../deps.js';
import type { RouteDef } from '../route-table.js';

/** SSE routes, and the WebSocket paths (which also appear as GET routes answering 426 without an upgrade). */
export function streamRoutes(_app: GatewayApp, _d: RouteDeps): RouteDef[] {
  return [];
}
