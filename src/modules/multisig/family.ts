// The multisig family (docs/multisig.md): reads, two-step writes, the signed
// approvals inbox, and multisig onboarding. Ledger semantics live in handlers.ts and execute.ts.

import type { RouteDeps } from '../../gateway/deps.js';
import type { RouteFamily } from '../../gateway/family.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import type { MultisigPort } from './port.js';
import { multisigApprovalRoutes } from './routes-approvals.js';
import { onboardRoute } from './routes-onboard.js';
import { multisigReadRoutes } from './routes-read.js';
import { multisigWriteRoutes } from './routes-write.js';

export function multisigFamily(
  port: MultisigPort,
  deps: RouteDeps,
  signedRequests: SignedRequests,
): RouteFamily {
  return {
    name: 'multisig',
    app: true,
    // Its rank in the serving order (docs/design/modules.md "Serving order"): where its routes have always been.
    servedAt: 140,
    routes: () => [
      ...multisigReadRoutes(deps, port),
      ...multisigWriteRoutes(deps, port),
      ...multisigApprovalRoutes(deps, port, signedRequests),
      onboardRoute(deps),
    ],
  };
}
