// Explorer views of the world state (reference-notes §12: "explorer covers accounts, domains, asset
// definitions …"): entities in id order with counts an explorer table shows, paged with `page` and
// `per_page`. Counts are computed for the requested page only (domain counts with one pass over the
// state), so a page costs O(entities) at most.

import type { Codec } from '../../codec/codec.js';
import { parseAccountId, parseDefinitionId, parseNftId } from '../../model/ids.js';
import type { RouteDeps } from '../deps.js';
import { type ExplorerPage, ExplorerQuerystring, explorerPagination, parseExplorerPage } from '../list.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, viewSchema } from '../view.js';
import {
  type ExplorerAccount,
  ExplorerAccountListView,
  type ExplorerAssetDefinition,
  ExplorerAssetDefinitionListView,
  type ExplorerDomain,
  ExplorerDomainListView,
  type ExplorerPagination,
} from '../views/explorer.js';
import { definitionItem } from './app-items.js';
import { JSON_OR_CODEC } from './app-lists.js';

function byId<T extends { id: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function pageOf<T>(all: readonly T[], p: ExplorerPage): T[] {
  return all.slice(p.offset, p.offset + p.perPage);
}

function countBy(ids: readonly string[], domainOf: (id: string) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const domain = domainOf(id);
    if (domain !== undefined) counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  return counts;
}

function accountsPage(d: RouteDeps, p: ExplorerPage) {
  const { state } = d.ports;
  const all = byId(state.listAccounts());
  const items = pageOf(all, p).map(
    (a): ExplorerAccount => ({
      id: a.id,
      domain: parseAccountId(a.id)?.domain ?? '',
      assetCount: state.assetsOfAccount(a.id).length,
      roleCount: state.rolesOfAccount(a.id).length,
      metadata: a.metadata,
    }),
  );
  return { pagination: explorerPagination(p, all.length), items };
}

function domainsPage(d: RouteDeps, p: ExplorerPage) {
  const { state } = d.ports;
  const all = byId(state.listDomains());
  const page = pageOf(all, p);
  const accounts = countBy(
    state.listAccounts().map((a) => a.id),
    (id) => parseAccountId(id)?.domain,
  );
  const definitions = countBy(
    state.listAssetDefinitions().map((a) => a.id),
    (id) => parseDefinitionId(id)?.domain,
  );
  const nfts = countBy(
    state.listNfts().map((n) => n.id),
    (id) => parseNftId(id)?.domain,
  );
  const items = page.map(
    (x): ExplorerDomain => ({
      id: x.id,
      ownedBy: x.ownedBy,
      accountCount: accounts.get(x.id) ?? 0,
      assetDefinitionCount: definitions.get(x.id) ?? 0,
      nftCount: nfts.get(x.id) ?? 0,
      metadata: x.metadata,
    }),
  );
  return { pagination: explorerPagination(p, all.length), items };
}

function definitionsPage(d: RouteDeps, p: ExplorerPage) {
  const { state } = d.ports;
  const all = byId(state.listAssetDefinitions());
  const items = pageOf(all, p).map((a): ExplorerAssetDefinition => {
    const { metadata: _metadata, ...item } = definitionItem(a);
    return { ...item, holderCount: state.holdersOfDefinition(a.id).length };
  });
  return { pagination: explorerPagination(p, all.length), items };
}

export function explorerStateRoutes(d: RouteDeps): RouteDef[] {
  const route = <T>(
    url: string,
    operationId: string,
    what: string,
    view: Codec<{ pagination: ExplorerPagination; items: T[] }>,
    build: (d: RouteDeps, p: ExplorerPage) => { pagination: ExplorerPagination; items: T[] },
  ) =>
    defineRoute({
      method: 'GET',
      url,
      operationId,
      summary: `${what} in id order: {pagination, items} with page and per_page`,
      tags: ['explorer'],
      visibility: 'public',
      formats: JSON_OR_CODEC,
      schema: { querystring: ExplorerQuerystring, response: { 200: viewSchema(view) } },
      handler: (req, reply) =>
        respond(d.schema, req, reply, view, build(d, parseExplorerPage(req.query, d.limits))),
    });
  return [
    route('/v1/explorer/accounts', 'explorerListAccounts', 'Accounts', ExplorerAccountListView, accountsPage),
    route('/v1/explorer/domains', 'explorerListDomains', 'Domains', ExplorerDomainListView, domainsPage),
    route(
      '/v1/explorer/assets/definitions',
      'explorerListAssetDefinitions',
      'Asset definitions',
      ExplorerAssetDefinitionListView,
      definitionsPage,
    ),
  ];
}
