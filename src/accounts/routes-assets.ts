// Asset definitions and their holders, under /v1/assets/*: list items carry `id`, `name` and
// `total_quantity`, and each asset definition exposes its holders.

import type { RouteDeps } from '../gateway/deps.js';
import { gatewayError } from '../gateway/errors.js';
import { definitionParam } from '../gateway/id-resolver.js';
import { ListQuerystring } from '../gateway/list.js';
import { defineRoute, type RouteDef } from '../gateway/route-table.js';
import {
  answerStateList,
  itemId,
  JSON_OR_CODEC,
  listRoutes,
  queryInput,
  tableSource,
} from '../gateway/routes/app-lists.js';
import { IdParams } from '../gateway/routes/app-params.js';
import { respondCached, viewSchema } from '../gateway/view.js';
import type { Asset } from '../model/entities.js';
import { assetItem, definitionItem, ID_FIELDS } from './items.js';
import type { AccountsPort } from './port.js';
import { AssetDefinitionItemView, AssetDefinitionListView, AssetItemView, AssetListView } from './views.js';

export function assetDefinitionRoutes(d: RouteDeps, port: AccountsPort): RouteDef[] {
  const { state } = port;
  const item = (a: Readonly<Asset> | undefined) => (a === undefined ? undefined : assetItem(a as Asset));
  const tags = ['assets'];
  // An id or a name naming it now (gateway/id-resolver.ts).
  const known = async (text: string) => {
    const id = await definitionParam(state, port.chain, text);
    const definition = state.assetDefinition(id);
    if (definition === undefined) throw gatewayError('not_found', { asset_definition: id });
    return definition;
  };
  return [
    ...listRoutes(d, {
      url: '/v1/assets/definitions',
      noun: 'AssetDefinitions',
      what: 'asset definitions',
      tags,
      views: {
        item: AssetDefinitionItemView,
        list: AssetDefinitionListView,
        idOf: itemId,
        idFields: ID_FIELDS.definition,
      },
      source: tableSource(state, 'assetDefinition', definitionItem),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/assets/definitions/:id',
      operationId: 'getAssetDefinition',
      summary: 'One asset definition by id (<name>#<domain>, URL-encoded)',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      errorStatuses: [404],
      schema: { params: IdParams, response: { 200: viewSchema(AssetDefinitionItemView) } },
      handler: async (req, reply) => {
        const definition = await known(req.params.id);
        return respondCached(d.schema, d.answers, req, reply, AssetDefinitionItemView, () =>
          definitionItem(definition),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/assets/definitions/:id/holders',
      operationId: 'listAssetDefinitionHolders',
      summary: 'Balances of one asset definition: {items, total} with limit, offset, filter and sort',
      tags,
      visibility: 'public',
      formats: JSON_OR_CODEC,
      errorStatuses: [404],
      schema: {
        params: IdParams,
        querystring: ListQuerystring,
        response: { 200: viewSchema(AssetListView) },
      },
      handler: async (req, reply) => {
        const { id } = await known(req.params.id);
        // Counted and paged from the index: a page without filter or sort reads its rows and the
        // definition's holder count, not every holder (gateway/list-scan.ts).
        const holders = () => ({
          ids: () => state.holderIds(id),
          get: (aid: string) => item(state.asset(aid)),
          peek: (aid: string) => item(state.peek('asset', aid)),
          count: () => state.holderCount(id),
          firstIds: (n: number) => state.firstHolderIds(id, n),
        });
        const views = { item: AssetItemView, list: AssetListView, idOf: itemId, idFields: ID_FIELDS.asset };
        return answerStateList(d, req, reply, views, holders, queryInput(req.query));
      },
    }),
  ];
}
