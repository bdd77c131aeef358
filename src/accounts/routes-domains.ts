// Domains and NFTs ("Application route families": /v1/domains/*, /v1/nfts/*):
// lists with their query twins, and reads by id.

import type { RouteDeps } from '../gateway/deps.js';
import { gatewayError } from '../gateway/errors.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import { itemId, JSON_OR_CODEC, listRoutes, tableSource } from '../gateway/routes/app-lists.js';
import { IdParams, pathId } from '../gateway/routes/app-params.js';
import { respondCached, viewSchema } from '../gateway/view.js';
import { DomainId, NftId } from '../model/ids.js';
import { domainItem, ID_FIELDS, nftItem } from './items.js';
import type { AccountsPort } from './port.js';
import { DomainItemView, DomainListView, NftItemView, NftListView } from './views.js';

export function domainRoutes(d: RouteDeps, port: AccountsPort): RouteDef[] {
  const { state } = port;
  const tags = ['domains'];
  return [
    ...listRoutes(d, {
      url: '/v1/domains',
      noun: 'Domains',
      what: 'domains',
      tags,
      views: { item: DomainItemView, list: DomainListView, idOf: itemId, idFields: ID_FIELDS.domain },
      source: tableSource(state, 'domain', domainItem),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/domains/:id',
      operationId: 'getDomain',
      summary: 'One domain by id',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      errorStatuses: [404],
      schema: { params: IdParams, response: { 200: viewSchema(DomainItemView) } },
      ...(d.answers === undefined ? {} : { answers: d.answers }),
      handler: (req, reply) =>
        respondCached(d.schema, d.answers, req, reply, DomainItemView, () => {
          const id = pathId(DomainId, req.params.id);
          const domain = state.domain(id);
          if (domain === undefined) throw gatewayError('not_found', { domain: id });
          return domainItem(domain);
        }),
    }),
  ];
}

export function nftRoutes(d: RouteDeps, port: AccountsPort): RouteDef[] {
  const { state } = port;
  const tags = ['nfts'];
  return [
    ...listRoutes(d, {
      url: '/v1/nfts',
      noun: 'Nfts',
      what: 'NFTs',
      tags,
      views: { item: NftItemView, list: NftListView, idOf: itemId, idFields: ID_FIELDS.nft },
      source: tableSource(state, 'nft', nftItem),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/nfts/:id',
      operationId: 'getNft',
      summary: 'One NFT by id (<name>$<domain>, URL-encoded)',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      errorStatuses: [404],
      schema: { params: IdParams, response: { 200: viewSchema(NftItemView) } },
      ...(d.answers === undefined ? {} : { answers: d.answers }),
      handler: (req, reply) =>
        respondCached(d.schema, d.answers, req, reply, NftItemView, () => {
          const id = pathId(NftId, req.params.id);
          const nft = state.nft(id);
          if (nft === undefined) throw gatewayError('not_found', { nft: id });
          return nftItem(nft);
        }),
    }),
  ];
}
