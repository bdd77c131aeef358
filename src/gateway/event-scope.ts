// The `domain`, `call`, `relay`, `account`, `definition` and `asset` stream-filter fields of a data event
// (event-filter.ts): which domain, call, relay, account, asset definition and asset (balance)
// the state change is about. Ids are parsed leniently: an event whose id does not parse simply lacks the
// field. A ledger module's events are scoped by the module (installModuleEventScopes, from
// src/modules/registry.ts): the gateway names no module.

import type { DataEvent } from '../model/events.js';
import { parseAccountId, parseAssetId, parseDefinitionId, parseNftId } from '../model/ids.js';

export interface EventScope {
  readonly domain?: string;
  readonly call?: string;
  readonly relay?: string;
  readonly account?: string;
  readonly definition?: string;
  readonly asset?: string;
}

/** A ledger module's scope of its own data events; undefined for an event that is not one of them. */
export type ModuleEventScope = (d: DataEvent) => EventScope | undefined;

let moduleScopes: readonly ModuleEventScope[] = [];

/** Installs the ledger modules' event scopes, in registry order (once per process, at start-up). */
export function installModuleEventScopes(scopes: readonly ModuleEventScope[]): void {
  moduleScopes = scopes;
}

function moduleScope(d: DataEvent): EventScope {
  for (const scope of moduleScopes) {
    const s = scope(d);
    if (s !== undefined) return s;
  }
  return {};
}

function domainOnly(domain: string | undefined): EventScope {
  return domain === undefined ? {} : { domain };
}

function accountScope(account: string): EventScope {
  const domain = parseAccountId(account)?.domain;
  return domain === undefined ? {} : { domain, account };
}

function definitionScope(definition: string): EventScope {
  const domain = parseDefinitionId(definition)?.domain;
  return domain === undefined ? {} : { domain, definition };
}

/** A balance change: the asset, its definition and account, and the definition's domain. */
function assetScope(asset: string): EventScope {
  const parts = parseAssetId(asset);
  if (parts === undefined) return {};
  const domain = parseDefinitionId(parts.definition)?.domain;
  return { ...domainOnly(domain), asset, definition: parts.definition, account: parts.account };
}

export function dataScope(d: DataEvent): EventScope {
  switch (d.kind) {
    case 'DomainCreated':
    case 'DomainDeleted':
    case 'DomainOwnerChanged':
      return { domain: d.id };
    case 'AccountCreated':
    case 'AccountDeleted':
      return accountScope(d.id);
    case 'AssetDefinitionCreated':
    case 'AssetDefinitionDeleted':
    case 'AssetDefinitionTotalChanged':
      return definitionScope(d.id);
    case 'AssetAdded':
    case 'AssetRemoved':
      return assetScope(d.id);
    case 'NftCreated':
    case 'NftDeleted':
    case 'NftOwnerChanged':
      return domainOnly(parseNftId(d.id)?.domain);
    case 'PermissionGranted':
    case 'PermissionRevoked':
    case 'RoleGranted':
    case 'RoleRevoked':
      return { account: d.account };
    default:
      return moduleScope(d);
  }
}
