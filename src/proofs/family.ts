// The ledger-proofs family (gateway/family.ts; docs/ledger-proofs.md): certified headers, state proofs
// and block-inclusion proofs under /v1/ledger/*. An application family (`app: true`): it exists with
// `app_api.enabled`, like the other application reads.

import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { ProofsPort } from './port.js';
import { proofRoutes } from './routes.js';

export function proofsFamily(port: ProofsPort, deps: RouteDeps): RouteFamily {
  return { name: 'ledger-proofs', app: true, servedAt: 200, routes: () => proofRoutes(deps, port) };
}
