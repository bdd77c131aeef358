// Asset definitions and their holders (gateway-interface.md "List responses": items carry `id`, `name`,
// `total_quantity`; "Application route families": /v1/assets/*; reference-notes §6, §12 "asset
// definitions expose holders").

import { AssetDefinitionId } from '../../model/ids.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import { ListQuerystring } from '../list.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respondCached, viewSchema } from '../view.js';
import {
  AssetDefinitionItemView,
  AssetDefinitionListView,
  AssetItemView,
  AssetListView,
} from '../views/app.js';
import { assetItem, definitionItem } from './app-items.js';
import { answerStateList, itemId, JSON_OR_CODEC, listRoutes, queryInput, tableSource } from './app-lists.js';
import { IdParams, pathId } from './app-params.js';

export function assetDefinitionRoutes(d: RouteDeps): RouteDef[] {
  const { state } = d.ports;
  const tags = ['assets'];
  const known = (text: string) => {
    const id = pathId(AssetDefinitionId, text);
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
      views: { item: AssetDefinitionItemView, list: AssetDefinitionListView, idOf: itemId },
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
      handler: (req, reply) =>
        respondCached(d.schema, d.answers, req, reply, AssetDefinitionItemView, () =>
          definitionItem(known(req.params.id)),
        ),
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
      handler: (req, reply) => {
        const holders = () => state.holdersOfDefinition(known(req.params.id).id).map(assetItem);
        const views = { item: AssetItemView, list: AssetListView, idOf: itemId };
        return answerStateList(d, req, reply, views, holders, queryInput(req.query));
      },
    }),
  ];
}
