// The route families this node serves, one line each: every family's factory gets its port adapted
// from the node here and nowhere else (gateway/family.ts). To add a family, add its folder and one line.

import type { GatewayApp } from '../gateway/context.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import { mcpFamily } from '../mcp/family.js';
import { operatorFamily } from '../operator/family.js';
import type { OperatorSessions } from '../operator/sessions.js';
import type { Node } from './node.js';

/** What a family's line may draw on. */
export interface FamilyEnv {
  node: Node;
  deps: RouteDeps;
  app: GatewayApp;
  /** The node directory when served from one (per-node stores live under its data folder). */
  dir?: string;
  /** Logs a background failure of a family (a worker, a store). */
  logError(what: string, e: unknown): void;
  /** The operator session store, shared with the gateway's operator authentication. */
  operatorSessions: OperatorSessions;
}

export async function nodeFamilies(env: FamilyEnv): Promise<RouteFamily[]> {
  return [
    operatorFamily(env.operatorSessions),
    ...(env.node.config.mcp.enabled
      ? [mcpFamily({ sessions: env.operatorSessions, errors: env.deps.errors })]
      : []),
  ];
}
