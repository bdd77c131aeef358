// Application read routes (gateway-interface.md "List responses", "Application route families";
// reference-notes §6, §12). Every route answers from the committed state or the block store through the
// ports, in JSON by default and in the framed codec when `Accept` prefers it:
//
//   /v1/domains, /v1/domains/{id}                                   app-domains.ts
//   /v1/nfts, /v1/nfts/{id}                                         app-domains.ts
//   /v1/assets/definitions, …/{id}, …/{id}/holders                 app-assets.ts
//   /v1/accounts, …/{id}, …/{id}/assets, /permissions, /transactions  app-accounts.ts
//   POST /v1/{domains,accounts,assets/definitions,nfts}/query       app-lists.ts
//   (the explorer, /v1/explorer/*, is a family of its own: src/explorer/)
//
// List parameters and their errors: gateway/list.ts. Path ids: app-params.ts.

import type { RouteDeps } from '../deps.js';
import type { RouteDef } from '../route-table.js';
import { accountRoutes } from './app-accounts.js';
import { assetDefinitionRoutes } from './app-assets.js';
import { domainRoutes, nftRoutes } from './app-domains.js';

export function appRoutes(d: RouteDeps): RouteDef[] {
  return [...domainRoutes(d), ...assetDefinitionRoutes(d), ...accountRoutes(d), ...nftRoutes(d)];
}
