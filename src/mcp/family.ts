// The MCP bridge family: an application family, listed by the node only when
// `mcp.enabled` (node/families.ts), so that without it /v1/mcp is the router's 404 and absent from OpenAPI.

import type { RouteFamily } from '../gateway/family.js';
import { installMcpStreamRefusal, type McpPort, mcpRoutes } from './routes.js';

export function mcpFamily(port: McpPort): RouteFamily {
  return {
    name: 'mcp',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 600,
    routes: (app) => mcpRoutes(app, port),
    install: (app) => installMcpStreamRefusal(app),
  };
}
