// The application reads of accounts, domains, asset definitions and NFTs (docs/app-api.md): the family `app-reads` (gateway/family.ts), listed in
// node/families.ts. Every route answers from the committed state through the family's port (port.ts), in
// JSON by default and in the framed codec when `Accept` prefers it:
//
//   /v1/domains, /v1/domains/{id}                                   routes-domains.ts
//   /v1/nfts, /v1/nfts/{id}                                         routes-domains.ts
//   /v1/assets/definitions, …/{id}, …/{id}/holders                 routes-assets.ts
//   /v1/accounts, …/{id}, …/{id}/assets, /permissions              routes-accounts.ts
//   POST /v1/{domains,accounts,assets/definitions,nfts}/query       gateway/routes/app-lists.ts (listRoutes)
//
// List parameters and their errors: gateway/list.ts. Path ids: gateway/routes/app-params.ts; accounts and
// asset definitions also by a name in place of the id (gateway/id-resolver.ts).

import type { RouteDeps } from '../gateway/deps.js';
import type { RouteFamily } from '../gateway/family.js';
import type { RouteDef } from '../gateway/route-table.js';
import type { AccountsPort } from './port.js';
import { accountRoutes } from './routes-accounts.js';
import { assetDefinitionRoutes } from './routes-assets.js';
import { domainRoutes, nftRoutes } from './routes-domains.js';

export function accountsRoutes(d: RouteDeps, port: AccountsPort): RouteDef[] {
  return [
    ...domainRoutes(d, port),
    ...assetDefinitionRoutes(d, port),
    ...accountRoutes(d, port),
    ...nftRoutes(d, port),
  ];
}

/** The family (an application family: registered only with `app_api.enabled`). */
export function accountsFamily(port: AccountsPort, d: RouteDeps): RouteFamily {
  return { name: 'app-reads', app: true, servedAt: 100, routes: () => accountsRoutes(d, port) };
}
