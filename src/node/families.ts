// The route families this node serves, one line each: every family's factory gets its port adapted
// from the node here and nowhere else (gateway/family.ts). To add a family, add its folder and one line.

import type { GatewayApp } from '../gateway/context.js';
import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { OperatorAuth } from '../gateway/operator-auth.js';
import { webhooksFamily } from '../webhooks/family.js';
import type { Node } from './node.js';
import { webhooksPort } from './webhooks-port.js';

/** What a family's line may draw on. */
export interface FamilyEnv {
  node: Node;
  deps: RouteDeps;
  app: GatewayApp;
  /** The node directory when served from one (per-node stores live under its data folder). */
  dir?: string;
  /** Logs a background failure of a family (a worker, a store). */
  logError(what: string, e: unknown): void;
  /** The server's operator authentication (families whose routes also accept operators). */
  operatorAuth: OperatorAuth;
}

export async function nodeFamilies(env: FamilyEnv): Promise<RouteFamily[]> {
  const { node, deps, dir } = env;
  return [
    // Webhooks keep their store in the node's data folder: without a node directory they are absent.
    ...(dir === undefined ? [] : [await webhooksFamily(webhooksPort(node, dir), deps, env)]),
  ];
}
