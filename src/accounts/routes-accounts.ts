// Accounts (/v1/accounts/*).
//
//
// An account's committed transactions (`/v1/accounts/{id}/transactions`) are a module's route, read
// from the commit-time indexes, with filters and cursors.

import type { RouteDeps } from '../gateway/deps.js';
import { gatewayError } from '../gateway/errors.js';
import { accountParam } from '../gateway/id-resolver.js';
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
import { PermissionCodec, permissionKey } from '../model/permissions.js';
import { accountDetail, accountItem, assetItem, ID_FIELDS } from './items.js';
import type { AccountsPort } from './port.js';
import {
  AccountDetailView,
  AccountItemView,
  AccountListView,
  AssetItemView,
  AssetListView,
  PermissionListView,
} from './views.js';

/** The shared fields of the `GET /v1/accounts/{id}…` routes. */
function sub(path: string, operationId: string, summary: string) {
  return {
    method: 'GET' as const,
    url: `/v1/accounts/:id${path}`,
    operationId,
    summary,
    tags: ['accounts'],
    visibility: 'public' as const,
    formats: JSON_OR_CODEC,
    errorStatuses: [404],
  };
}

/** The account's own reads: detail, balances, grants. */
function accountReadRoutes(d: RouteDeps, port: AccountsPort): RouteDef[] {
  const { state } = port;
  const known = (text: string) => {
    const id = accountParam(state, text);
    const account = state.account(id);
    if (account === undefined) throw gatewayError('not_found', { account: id });
    return account;
  };
  return [
    defineRoute({
      ...sub('', 'getAccount', 'One account with its assets, direct permissions and roles'),
      schema: { params: IdParams, response: { 200: viewSchema(AccountDetailView) } },
      ...(d.answers === undefined ? {} : { answers: d.answers }),
      handler: (req, reply) =>
        respondCached(d.schema, d.answers, req, reply, AccountDetailView, () =>
          accountDetail(state, known(req.params.id)),
        ),
    }),
    defineRoute({
      ...sub('/assets', 'listAccountAssets', "An account's balances: {items, total}, filter and sort"),
      schema: {
        params: IdParams,
        querystring: ListQuerystring,
        response: { 200: viewSchema(AssetListView) },
      },
      ...(d.answers === undefined ? {} : { answers: d.answers }),
      handler: (req, reply) => {
        const assets = () => state.assetsOfAccount(known(req.params.id).id).map(assetItem);
        const views = { item: AssetItemView, list: AssetListView, idOf: itemId, idFields: ID_FIELDS.asset };
        return answerStateList(d, req, reply, views, assets, queryInput(req.query));
      },
    }),
    defineRoute({
      ...sub('/permissions', 'listAccountPermissions', "An account's direct permission grants"),
      schema: {
        params: IdParams,
        querystring: ListQuerystring,
        response: { 200: viewSchema(PermissionListView) },
      },
      ...(d.answers === undefined ? {} : { answers: d.answers }),
      handler: (req, reply) => {
        const permissions = () => state.permissionsOfAccount(known(req.params.id).id);
        const views = { item: PermissionCodec, list: PermissionListView, idOf: permissionKey };
        return answerStateList(d, req, reply, views, permissions, queryInput(req.query));
      },
    }),
  ];
}

export function accountRoutes(d: RouteDeps, port: AccountsPort): RouteDef[] {
  return [
    ...listRoutes(d, {
      url: '/v1/accounts',
      noun: 'Accounts',
      what: 'accounts',
      tags: ['accounts'],
      views: { item: AccountItemView, list: AccountListView, idOf: itemId, idFields: ID_FIELDS.account },
      source: tableSource(port.state, 'account', accountItem),
    }),
    ...accountReadRoutes(d, port),
  ];
}
