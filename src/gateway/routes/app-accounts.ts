// Accounts (gateway-interface.md "Application route families": /v1/accounts/*; reference-notes §12
// "accounts expose assets, permissions and transaction history").
//
// Transaction history is read from the ledger's per-account index (newest first) and pages with
// `limit`/`offset` only: filtering it would mean loading every block the account ever touched. An account
// that was unregistered keeps its history, so the history route answers 404 only when the account is
// unknown AND has no history.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { PermissionCodec, permissionKey } from '../../model/permissions.js';
import { transactionHash } from '../../model/transaction.js';
import { toHex } from '../../util/hex.js';
import { accountParam } from '../alias-resolver.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import { ListQuerystring, PageQuerystring, parsePage } from '../list.js';
import type { TxLocation } from '../ports.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { respond, respondCached, viewSchema } from '../view.js';
import {
  AccountDetailView,
  AccountItemView,
  AccountListView,
  type AccountTransaction,
  AccountTransactionListView,
  AssetItemView,
  AssetListView,
  PermissionListView,
} from '../views/app.js';
import { accountDetail, accountItem, assetItem } from './app-items.js';
import { answerStateList, itemId, JSON_OR_CODEC, listRoutes, queryInput, tableSource } from './app-lists.js';
import { IdParams } from './app-params.js';

async function historyItems(d: RouteDeps, locations: readonly TxLocation[]): Promise<AccountTransaction[]> {
  const out: AccountTransaction[] = [];
  for (const l of locations) {
    const block = await d.ports.chain.block(l.height);
    const tx = block?.transactions[l.index];
    const result = block?.results[l.index];
    // The index only names committed transactions; a gap means the block is not readable right now.
    if (tx === undefined || result === undefined) continue;
    out.push({
      hash: toHex(transactionHash(tx)),
      blockHeight: l.height,
      index: l.index,
      authority: tx.payload.authority,
      creationTimeMs: tx.payload.creationTimeMs,
      result,
      instructions: tx.payload.instructions,
    });
  }
  return out;
}

async function answerHistory(
  d: RouteDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  text: string,
  q: object,
) {
  const id = accountParam(d.ports.state, text);
  const { limit, offset } = parsePage(q, d.limits);
  const page = await d.ports.chain.accountTransactions(id, offset, limit);
  if (page.total === 0 && d.ports.state.account(id) === undefined)
    throw gatewayError('not_found', { account: id });
  const items = await historyItems(d, page.items);
  return respond(d.schema, req, reply, AccountTransactionListView, { items, total: page.total });
}

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
function accountReadRoutes(d: RouteDeps): RouteDef[] {
  const { state } = d.ports;
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
      handler: (req, reply) => {
        const assets = () => state.assetsOfAccount(known(req.params.id).id).map(assetItem);
        const views = { item: AssetItemView, list: AssetListView, idOf: itemId };
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
      handler: (req, reply) => {
        const permissions = () => state.permissionsOfAccount(known(req.params.id).id);
        const views = { item: PermissionCodec, list: PermissionListView, idOf: permissionKey };
        return answerStateList(d, req, reply, views, permissions, queryInput(req.query));
      },
    }),
  ];
}

export function accountRoutes(d: RouteDeps): RouteDef[] {
  return [
    ...listRoutes(d, {
      url: '/v1/accounts',
      noun: 'Accounts',
      what: 'accounts',
      tags: ['accounts'],
      views: { item: AccountItemView, list: AccountListView, idOf: itemId },
      source: tableSource(d.ports.state, 'account', accountItem),
    }),
    ...accountReadRoutes(d),
    defineRoute({
      ...sub('/transactions', 'listAccountTransactions', "An account's committed transactions, newest first"),
      schema: {
        params: IdParams,
        querystring: PageQuerystring,
        response: { 200: viewSchema(AccountTransactionListView) },
      },
      handler: (req, reply) => answerHistory(d, req, reply, req.params.id, req.query),
    }),
  ];
}
