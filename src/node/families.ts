// The route families this node serves, one line each: every family's factory gets its port adapted
// from the node here and nowhere else (gateway/family.ts). To add a family, add its folder and one line.
// serve.ts registers only the families the configuration enables: an application family (`app: true`)
// needs `app_api.enabled`. Factories start nothing (workers start in `install`), so a family left out
// costs nothing; serve.ts still calls `close` on it.

import { accountsFamily } from '../accounts/family.js';
import type { GatewayApp } from '../gateway/context.js';
import type { RouteDeps } from '../gateway/deps.js';
import { placeFamilies, type RouteFamily } from '../gateway/family.js';
import type { OperatorAuth } from '../gateway/operator-auth.js';
import type { OperatorSessions } from '../gateway/operator-sessions.js';
import { createSignedNonceStore } from '../gateway/signed-nonces.js';
import { createSignedRequests } from '../gateway/signed-request.js';
import { mcpFamily } from '../mcp/family.js';
import {
  LEDGER_MODULES,
  type LedgerModule,
  moduleFamilies,
  moduleGatewayErrors,
  sessionsWithoutKeys,
} from '../modules/load.js';
import { policyFamily } from '../policy/family.js';
import { proofsFamily } from '../proofs/family.js';
import { nodeFiles } from './files.js';
import { nodeTransactions } from './module-transactions.js';
import type { Node } from './node.js';
import { policyPort } from './policy-port.js';
import { proofsPort } from './proofs-port.js';
import { committedReads, readSourceOf } from './read-backend.js';
import { committedEventReplay } from './replay-events.js';
import { signersPort } from './signers-port.js';

/** The modules' gateway error codes, for the node's error registry (node/serve.ts). */
export { type LedgerModule, moduleGatewayErrors, sessionsWithoutKeys };

/** What a family's line may draw on. */
export interface FamilyEnv {
  node: Node;
  deps: RouteDeps;
  app: GatewayApp;
  /** The node directory when served from one (per-node stores live under its data folder). */
  dir?: string;
  /** The ledger modules whose families are served (default: this build's, modules/load.ts). */
  modules?: readonly LedgerModule[];
  /** Logs a background failure of a family (a worker, a store). */
  logError(what: string, e: unknown): void;
  /** The server's operator authentication (families whose routes also accept operators). */
  operatorAuth: OperatorAuth;
  /** The operator session store, shared with the gateway's operator authentication. */
  operatorSessions: OperatorSessions;
}

/** `[make()]` when `on`, else `[]`: a family whose own switch is off is not even built. */
function when(on: boolean, make: () => RouteFamily): RouteFamily[] {
  return on ? [make()] : [];
}

export async function nodeFamilies(env: FamilyEnv): Promise<RouteFamily[]> {
  const { node, deps, dir } = env;
  const c = node.config;
  const now = () => node.clock.nowMs();
  // ONE verifier and ONE nonce store for the signed app requests of every family (signed-request.ts).
  const signed = createSignedRequests({
    signers: signersPort(node.ledger.state),
    nonces: createSignedNonceStore(c.signed_requests.noncesPerAccountMax),
    now,
  });
  // The ledger modules' families (src/modules/registry.ts) come in registry order after the core's; each
  // is served at its rank (`servedAt`, gateway/family.ts placeFamilies; docs/design/modules.md "Serving
  // order").
  return placeFamilies([
    // The application reads: accounts, domains, asset definitions, NFTs (+ /query twins).
    accountsFamily({ state: deps.ports.state, chain: deps.ports.chain }, deps),
    proofsFamily(proofsPort(node, deps.ports), deps),
    ...(await moduleFamilies(
      {
        state: node.ledger.state,
        deps,
        config: c,
        signedRequests: signed,
        now,
        logError: env.logError,
        operatorAuth: env.operatorAuth,
        events: node.pipeline.events,
        replay: committedEventReplay(node),
        transactions: nodeTransactions(node),
        // The read families' committed chain: the node's ledger, or the replica an installed module's
        // section names (its `readSource`: read-backend.ts).
        reads: committedReads(node, deps, readSourceOf(c, env.modules ?? LEDGER_MODULES), env.logError),
        operatorSessions: env.operatorSessions,
        logInfo: (entry, message) => env.app.log.info(entry, message),
        // The peer channel for the modules' own messages (their `peerMessages`); none on a lone node.
        ...(node.network === undefined ? {} : { peers: node.network }),
        // Per-module stores live in the node's data folder: without a node directory there is none.
        ...(dir === undefined ? {} : { dataDir: nodeFiles(dir).data, nodeDir: nodeFiles(dir).dir }),
      },
      env.modules ?? LEDGER_MODULES,
    )),
    // The admission limits this node enforces (GET /v1/policy).
    policyFamily(policyPort(node)),
    ...when(c.mcp.enabled, () => mcpFamily({ sessions: env.operatorSessions, errors: deps.errors })),
  ]);
}
