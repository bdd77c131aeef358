// The alias resolution routes (docs/data-model.md §Aliases). Public reads of ledger
// state: no signature, `source` always "ledger". There is no VOPRF (blinded lookup) route: absent, not mocked.
//
//   POST /v1/aliases/resolve         {alias}                  → {alias, account_id, index, is_primary, source}
//   POST /v1/aliases/resolve_index   {index}                  → {index, alias, account_id, source}
//   POST /v1/aliases/by_account      {account_id, domain?, limit?, offset?}
//                                    → {account_id, total, items: [{alias, domain, index, is_primary}], source}
//   POST /v1/assets/aliases/resolve  {alias}                  → {alias, asset_definition_id, name, lease_status, …}
// 404 not_found when the alias (or index, or account) is unbound; 400 bad_request for a malformed alias.

import { Type } from 'typebox';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import type { RouteFamily } from '../../gateway/family.js';
import { existingAccount } from '../../gateway/id-resolver.js';
import { parsePage } from '../../gateway/list.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import { respond, viewSchema } from '../../gateway/view.js';
import { parseDefinitionId } from '../../model/ids.js';
import { NAME_BYTES_MAX } from '../../model/names.js';
import { ALIAS_TEXT_BYTES_MAX, accountAliasProblem, aliasDomain, assetAliasProblem } from './literal.js';
import type { AliasPort } from './port.js';
import { type AccountAlias, leaseStatus } from './rows.js';
import { AccountAliasListView, AccountAliasView, AliasIndexView, AssetAliasView } from './views.js';

const SOURCE = 'ledger';
const ALIAS = Type.String({ minLength: 1, maxLength: ALIAS_TEXT_BYTES_MAX });
const AliasBody = Type.Object({ alias: ALIAS }, { additionalProperties: false });
const NOTE = 'Public ledger state at the committed height; no signature needed. `source` is always "ledger".';

function post(url: string, operationId: string, summary: string, tags: string[]) {
  return {
    method: 'POST' as const,
    readsOnly: true,
    url,
    operationId,
    summary,
    description: NOTE,
    tags,
    visibility: 'public' as const,
    errorStatuses: [404],
  };
}

function badAlias(alias: string, problem: { message: string }): never {
  throw gatewayError('bad_request', {
    location: 'body',
    field: 'alias',
    alias: alias.slice(0, 128),
    reason: problem.message,
  });
}

function resolveRoute(d: RouteDeps, port: AliasPort): RouteDef {
  return defineRoute({
    ...post('/v1/aliases/resolve', 'resolveAccountAlias', 'Account alias → account id', ['aliases']),
    schema: { body: AliasBody, response: { 200: viewSchema(AccountAliasView) } },
    handler: (req, reply) => {
      const { alias } = req.body;
      const problem = accountAliasProblem(alias);
      if (problem !== undefined) badAlias(alias, problem);
      const row = port.accountAlias(alias);
      if (row === undefined)
        throw gatewayError('not_found', { account_alias: alias }, `no account alias ${alias} is bound`);
      const answer = {
        alias,
        accountId: row.account,
        index: row.index,
        isPrimary: row.primary,
        source: SOURCE,
      };
      return respond(d.schema, req, reply, AccountAliasView, answer);
    },
  });
}

function resolveIndexRoute(d: RouteDeps, port: AliasPort): RouteDef {
  return defineRoute({
    ...post('/v1/aliases/resolve_index', 'resolveAccountAliasIndex', 'Alias index → alias and account', [
      'aliases',
    ]),
    schema: {
      body: Type.Object(
        { index: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) },
        { additionalProperties: false },
      ),
      response: { 200: viewSchema(AliasIndexView) },
    },
    handler: (req, reply) => {
      const row = port.aliasByIndex(req.body.index);
      if (row === undefined)
        throw gatewayError(
          'not_found',
          { alias_index: req.body.index },
          `no account alias has index ${req.body.index}`,
        );
      const answer = { index: row.index, alias: row.alias, accountId: row.account, source: SOURCE };
      return respond(d.schema, req, reply, AliasIndexView, answer);
    },
  });
}

const ByAccountBody = Type.Object(
  {
    account_id: Type.String({ minLength: 1, maxLength: 512 }),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_BYTES_MAX * 4 })),
    limit: Type.Optional(Type.Integer()),
    offset: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

function accountOf(port: AliasPort, text: string): string {
  return existingAccount(port, text);
}

function byAccountRoute(d: RouteDeps, port: AliasPort): RouteDef {
  return defineRoute({
    ...post('/v1/aliases/by_account', 'listAccountAliases', 'Every alias bound to an account', ['aliases']),
    schema: { body: ByAccountBody, response: { 200: viewSchema(AccountAliasListView) } },
    handler: (req, reply) => {
      const b = req.body;
      const { limit, offset } = parsePage({ limit: b.limit, offset: b.offset }, d.limits);
      const account = accountOf(port, b.account_id);
      const all = port.aliasesOfAccount(account, b.domain);
      const item = (a: AccountAlias) => ({
        alias: a.alias,
        domain: aliasDomain(a.alias),
        index: a.index,
        isPrimary: a.primary,
      });
      const answer = {
        accountId: account,
        total: all.length,
        items: all.slice(offset, offset + limit).map(item),
        source: SOURCE,
      };
      return respond(d.schema, req, reply, AccountAliasListView, answer);
    },
  });
}

function assetResolveRoute(d: RouteDeps, port: AliasPort): RouteDef {
  return defineRoute({
    ...post('/v1/assets/aliases/resolve', 'resolveAssetAlias', 'Asset alias → definition and lease status', [
      'aliases',
      'assets',
    ]),
    schema: { body: AliasBody, response: { 200: viewSchema(AssetAliasView) } },
    handler: async (req, reply) => {
      const { alias } = req.body;
      const problem = assetAliasProblem(alias);
      if (problem !== undefined) badAlias(alias, problem);
      const row = port.assetAlias(alias);
      if (row === undefined)
        throw gatewayError('not_found', { asset_alias: alias }, `no asset alias ${alias} is bound`);
      const answer = {
        alias,
        assetDefinitionId: row.definition,
        name: parseDefinitionId(row.definition)?.name ?? row.definition,
        leaseStatus: leaseStatus(row.lease, await port.tipTimeMs()),
        source: SOURCE,
        ...(row.lease === undefined
          ? {}
          : { leaseExpiresAtMs: row.lease.expiresAtMs, leaseGraceMs: row.lease.graceMs }),
      };
      return respond(d.schema, req, reply, AssetAliasView, answer);
    },
  });
}

export function aliasRoutes(d: RouteDeps, port: AliasPort): RouteDef[] {
  return [
    resolveRoute(d, port),
    resolveIndexRoute(d, port),
    byAccountRoute(d, port),
    assetResolveRoute(d, port),
  ];
}

/** The aliases family (an application family: registered with `app_api.enabled`). */
export function aliasFamily(port: AliasPort, deps: RouteDeps): RouteFamily {
  // Its rank (docs/design/modules.md "Serving order") keeps the alias routes where they have always been.
  return { name: 'aliases', app: true, servedAt: 120, routes: () => aliasRoutes(deps, port) };
}
