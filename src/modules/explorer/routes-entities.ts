// One-entity explorer routes and the balance and NFT lists: an account (with owned
// counts), a domain, an asset definition, balances filtered by `owned_by`, `definition` or `asset_id`,
// one balance, NFTs and one NFT. Unknown ids are 404 `not_found`; malformed ones 400 `bad_request`.

import { Type } from 'typebox';
import { definitionItem } from '../../accounts/items.js';
import type { Codec } from '../../codec/codec.js';
import { gatewayError } from '../../gateway/errors.js';
import { idOrName, withNames } from '../../gateway/id-name-words.js';
import { accountParam, definitionParam } from '../../gateway/id-resolver.js';
import { type NumberedPage, numberedPagination, PageNumberQuerystring } from '../../gateway/list.js';
import type { StateReader } from '../../gateway/ports.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { IdParams, pathId } from '../../gateway/routes/app-params.js';
import { respond, viewSchema } from '../../gateway/view.js';
import type { Asset, Nft } from '../../model/entities.js';
import {
  AccountId,
  AssetDefinitionId,
  AssetId,
  DomainId,
  NftId,
  parseAssetId,
  parseNftId,
} from '../../model/ids.js';
import { common, type ExplorerContext, withIds } from './context.js';
import { accountRow, domainRows, indexPage, ownedCounts, stateListRoute } from './routes-state.js';
import { ExplorerAccountView, ExplorerAssetDefinitionDetailView, ExplorerDomainView } from './views.js';
import {
  type ExplorerAsset,
  ExplorerAssetListView,
  ExplorerAssetView,
  type ExplorerNft,
  ExplorerNftListView,
  ExplorerNftView,
} from './views-more.js';

/** The balance filters; their descriptions word the names taken in place of ids (id-name-words.ts). */
const assetsQuery = () =>
  Type.Object({
    ...PageNumberQuerystring.properties,
    owned_by: Type.Optional(Type.String({ maxLength: 512, description: idOrName('account id') })),
    definition: Type.Optional(Type.String({ maxLength: 512, description: idOrName('asset definition id') })),
    asset_id: Type.Optional(
      Type.String({
        maxLength: 512,
        description: withNames('one asset id', (w) => ` (its parts may be ${w.many})`),
      }),
    ),
  });

/** The balance filters naming an entity: each takes a name in place of the id. */
const ASSETS_QUERY_IDS = { owned_by: 'account', definition: 'definition', asset_id: 'asset' } as const;

function queryId(codec: Codec<string>, parameter: string, value: string): string {
  try {
    return codec.fromJson(value, '');
  } catch {
    throw gatewayError('bad_request', { location: 'querystring', parameter, value: value.slice(0, 128) });
  }
}

export function assetRow(a: Asset): ExplorerAsset {
  const p = parseAssetId(a.id);
  return { id: a.id, accountId: p?.account ?? '', definitionId: p?.definition ?? '', quantity: a.value };
}

export function nftRow(n: Nft): ExplorerNft {
  return { id: n.id, domain: parseNftId(n.id)?.domain ?? '', ownedBy: n.ownedBy, content: n.content };
}

/** One asset definition with its holder count (the state's count: on disk one read, not its holders). */
export function definitionDetail(state: StateReader, id: string) {
  const a = state.assetDefinition(id);
  return a === undefined ? undefined : { ...definitionItem(a), holderCount: state.holderCount(id) };
}

/** Balances matching the filters, in id order (the narrowest source first). */
export function assetsPage(state: StateReader, p: NumberedPage, q: Record<string, string | undefined>) {
  const owner = q.owned_by === undefined ? undefined : queryId(AccountId, 'owned_by', q.owned_by);
  const def = q.definition === undefined ? undefined : queryId(AssetDefinitionId, 'definition', q.definition);
  const one = q.asset_id === undefined ? undefined : queryId(AssetId, 'asset_id', q.asset_id);
  const row = (id: string) => {
    const a = state.asset(id);
    return a === undefined ? undefined : assetRow(a);
  };
  if (owner === undefined && def === undefined && one === undefined)
    return indexPage(state.sortedIds('asset'), p, row);
  if (def !== undefined && owner === undefined && one === undefined) {
    // One definition's balances: counted by its holder count and cut from the first ids of its index
    // (on disk one read and the ids up to the page's end), not every holder listed.
    const end = p.offset + p.perPage;
    const ids = state.firstHolderIds(def, end) ?? state.holderIds(def);
    const items = ids.slice(p.offset, end).flatMap((id) => {
      const r = row(id);
      return r === undefined ? [] : [r];
    });
    return { pagination: numberedPagination(p, state.holderCount(def)), items };
  }
  // One asset, or an owner's balances (a definition given with them narrows them below).
  const rows =
    one !== undefined
      ? [state.asset(one)].filter((a): a is Asset => a !== undefined)
      : state.assetsOfAccount(owner!);
  const keep = rows
    .map(assetRow)
    .filter(
      (r) =>
        (owner === undefined || r.accountId === owner) &&
        (def === undefined || r.definitionId === def) &&
        (one === undefined || r.id === one),
    );
  keep.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    pagination: numberedPagination(p, keep.length),
    items: keep.slice(p.offset, p.offset + p.perPage),
  };
}

function nftsPage(state: StateReader, p: NumberedPage) {
  return indexPage(state.sortedIds('nft'), p, (id) => {
    const n = state.nft(id);
    return n === undefined ? undefined : nftRow(n);
  });
}

/**
 * The canonical id of a path parameter; accounts and definitions may be given by a name in place of the
 * id, and so may an asset's two parts (gateway/id-resolver.ts).
 */
async function entityId(x: ExplorerContext, codec: Codec<string>, text: string): Promise<string> {
  if (codec === AccountId) return accountParam(x.port.state, text);
  if (codec === AssetDefinitionId) return definitionParam(x.port.state, x.port.chain, text);
  if (codec === AssetId) return pathId(AssetId, (await withIds(x, { id: text }, { id: 'asset' })).id);
  return pathId(codec, text);
}

/** A GET of one entity: `find` reads it by the canonical path id (undefined → 404). */
function oneRoute<T>(
  x: ExplorerContext,
  r: { url: string; operationId: string; summary: string; id: Codec<string>; view: Codec<T> },
  find: (state: StateReader, id: string) => T | undefined,
): RouteDef {
  return defineRoute({
    ...common(),
    method: 'GET',
    url: r.url,
    operationId: r.operationId,
    summary: r.summary,
    errorStatuses: [404],
    schema: { params: IdParams, response: { 200: viewSchema(r.view) } },
    handler: async (req, reply) => {
      const id = await entityId(x, r.id, req.params.id);
      const found = find(x.port.state, id);
      if (found === undefined) throw gatewayError('not_found', { id });
      return respond(x.deps.schema, req, reply, r.view, found);
    },
  });
}

export function entityRoutes(x: ExplorerContext): RouteDef[] {
  return [
    oneRoute(
      x,
      {
        url: '/v1/explorer/accounts/:id',
        operationId: 'explorerGetAccount',
        summary: 'One account with owned counts',
        id: AccountId,
        view: ExplorerAccountView,
      },
      (s, id) => {
        const a = s.account(id);
        return a === undefined ? undefined : accountRow(s, a, ownedCounts(s));
      },
    ),
    oneRoute(
      x,
      {
        url: '/v1/explorer/domains/:id',
        operationId: 'explorerGetDomain',
        summary: 'One domain with its counts',
        id: DomainId,
        view: ExplorerDomainView,
      },
      (s, id) => {
        const d = s.domain(id);
        return d === undefined ? undefined : domainRows(s, [d])[0];
      },
    ),
    oneRoute(
      x,
      {
        url: '/v1/explorer/asset-definitions/:id',
        operationId: 'explorerGetAssetDefinition',
        summary: 'One asset definition with its holder count and metadata',
        id: AssetDefinitionId,
        view: ExplorerAssetDefinitionDetailView,
      },
      definitionDetail,
    ),
    stateListRoute(
      x,
      {
        url: '/v1/explorer/assets',
        operationId: 'explorerListAssets',
        what: 'Balances (filters owned_by, definition, asset_id)',
        view: ExplorerAssetListView,
      },
      assetsPage,
      assetsQuery(),
      ASSETS_QUERY_IDS,
    ),
    oneRoute(
      x,
      {
        url: '/v1/explorer/assets/:id',
        operationId: 'explorerGetAsset',
        summary: 'One balance',
        id: AssetId,
        view: ExplorerAssetView,
      },
      (s, id) => {
        const a = s.asset(id);
        return a === undefined ? undefined : assetRow(a);
      },
    ),
    stateListRoute(
      x,
      { url: '/v1/explorer/nfts', operationId: 'explorerListNfts', what: 'NFTs', view: ExplorerNftListView },
      nftsPage,
    ),
    oneRoute(
      x,
      {
        url: '/v1/explorer/nfts/:id',
        operationId: 'explorerGetNft',
        summary: 'One NFT',
        id: NftId,
        view: ExplorerNftView,
      },
      (s, id) => {
        const n = s.nft(id);
        return n === undefined ? undefined : nftRow(n);
      },
    ),
  ];
}
