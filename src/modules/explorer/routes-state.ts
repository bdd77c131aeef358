// Explorer lists of the world state: accounts, domains and asset definitions in id
// order with the counts an explorer table shows, paged with `page` and `per_page`. Counts are computed
// for the requested page only (owned-domain / NFT and per-domain counts with one pass over those
// tables), so a page costs O(entities) at most. One-entity routes: routes-entities.ts.

import { definitionItem } from '../../accounts/items.js';
import type { Codec } from '../../codec/codec.js';
import type { IdKind } from '../../gateway/id-resolver.js';
import {
  type NumberedPage,
  numberedPagination,
  PageNumberQuerystring,
  parseNumberedPage,
} from '../../gateway/list.js';
import type { StateReader } from '../../gateway/ports.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { Account, AssetDefinition, Domain } from '../../model/entities.js';
import { parseAccountId, parseDefinitionId, parseNftId } from '../../model/ids.js';
import { common, type ExplorerContext, withIds } from './context.js';
import {
  type ExplorerAccount,
  ExplorerAccountListView,
  type ExplorerAssetDefinition,
  ExplorerAssetDefinitionListView,
  type ExplorerDomain,
  ExplorerDomainListView,
  type ExplorerPagination,
} from './views.js';

export function byId<T extends { id: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function pageOf<T>(all: readonly T[], p: NumberedPage): T[] {
  return all.slice(p.offset, p.offset + p.perPage);
}

function countBy(ids: readonly string[], keyOf: (id: string) => string | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const key = keyOf(id);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Owned domains and NFTs per account (one pass over both tables). */
export function ownedCounts(state: StateReader) {
  return {
    domains: countBy(
      state.listDomains().map((d) => d.ownedBy),
      (a) => a,
    ),
    nfts: countBy(
      state.listNfts().map((n) => n.ownedBy),
      (a) => a,
    ),
  };
}

export function accountRow(
  state: StateReader,
  a: Account,
  owned: ReturnType<typeof ownedCounts>,
): ExplorerAccount {
  const assets = state.assetsOfAccount(a.id).length;
  return {
    id: a.id,
    domain: parseAccountId(a.id)?.domain ?? '',
    assetCount: assets,
    roleCount: state.rolesOfAccount(a.id).length,
    metadata: a.metadata,
    ownedDomains: owned.domains.get(a.id) ?? 0,
    ownedAssets: assets,
    ownedNfts: owned.nfts.get(a.id) ?? 0,
  };
}

type Page<T> = { pagination: ExplorerPagination; items: T[] };

/** A page of a table's sorted id index: only the page's ids are read (`row`: undefined when gone). */
export function indexPage<T>(
  ids: readonly string[],
  p: NumberedPage,
  row: (id: string) => T | undefined,
): Page<T> {
  const items = pageOf(ids, p).flatMap((id) => {
    const r = row(id);
    return r === undefined ? [] : [r];
  });
  return { pagination: numberedPagination(p, ids.length), items };
}

/** Only the page's accounts are read (the id list is the state's sorted index). */
function accountsPage(state: StateReader, p: NumberedPage) {
  const ids = state.sortedIds('account');
  const owned = ownedCounts(state);
  return indexPage(ids, p, (id) => {
    const a = state.account(id);
    return a === undefined ? undefined : accountRow(state, a, owned);
  });
}

export function domainRows(state: StateReader, domains: readonly Domain[]): ExplorerDomain[] {
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
  return domains.map((x) => ({
    id: x.id,
    ownedBy: x.ownedBy,
    accountCount: accounts.get(x.id) ?? 0,
    assetDefinitionCount: definitions.get(x.id) ?? 0,
    nftCount: nfts.get(x.id) ?? 0,
    metadata: x.metadata,
  }));
}

function domainsPage(state: StateReader, p: NumberedPage) {
  const all = byId(state.listDomains());
  return { pagination: numberedPagination(p, all.length), items: domainRows(state, pageOf(all, p)) };
}

export function definitionRow(state: StateReader, a: AssetDefinition): ExplorerAssetDefinition {
  const { metadata: _metadata, ...item } = definitionItem(a);
  return { ...item, holderCount: state.holderCount(a.id) };
}

function definitionsPage(state: StateReader, p: NumberedPage) {
  const all = byId(state.listAssetDefinitions());
  const items = pageOf(all, p).map((a) => definitionRow(state, a));
  return { pagination: numberedPagination(p, all.length), items };
}

/** A list route over the state: `build` gives the page for the parsed `page` / `per_page`. */
export function stateListRoute<T>(
  x: ExplorerContext,
  r: { url: string; operationId: string; what: string; view: Codec<Page<T>> },
  build: (state: StateReader, p: NumberedPage, query: Record<string, string | undefined>) => Page<T>,
  querystring = PageNumberQuerystring,
  /** Query parameters naming an entity: names resolved to ids before `build` (context.ts withIds). */
  ids: Readonly<Record<string, IdKind>> = {},
): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: r.url,
    operationId: r.operationId,
    summary: `${r.what} in id order: {pagination, items} with page and per_page`,
    schema: { querystring, response: { 200: viewSchema(r.view) } },
    handler: async (req, reply) => {
      const query = await withIds(x, req.query as Record<string, string | undefined>, ids);
      const page = build(x.port.state, parseNumberedPage(query, x.deps.limits), query);
      return respond(x.deps.schema, req, reply, r.view, page);
    },
  });
}

export function stateListRoutes(x: ExplorerContext): RouteDef[] {
  return [
    stateListRoute(
      x,
      {
        url: '/v1/explorer/accounts',
        operationId: 'explorerListAccounts',
        what: 'Accounts',
        view: ExplorerAccountListView,
      },
      accountsPage,
    ),
    stateListRoute(
      x,
      {
        url: '/v1/explorer/domains',
        operationId: 'explorerListDomains',
        what: 'Domains',
        view: ExplorerDomainListView,
      },
      domainsPage,
    ),
    stateListRoute(
      x,
      {
        url: '/v1/explorer/asset-definitions',
        operationId: 'explorerListAssetDefinitions',
        what: 'Asset definitions',
        view: ExplorerAssetDefinitionListView,
      },
      definitionsPage,
    ),
  ];
}
