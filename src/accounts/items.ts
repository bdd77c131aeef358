// Entities of the world state as list items (views.ts): the entity's own fields plus the parts of its
// id that clients filter on. Pure functions of the committed state read through the StateReader port.

import type { IdFields } from '../gateway/id-filter.js';
import type { StateReader } from '../gateway/ports.js';
import type { Account, Asset, AssetDefinition, Domain, Nft } from '../model/entities.js';
import { parseAccountId, parseAssetId, parseDefinitionId, parseNftId } from '../model/ids.js';
import { AssertionError } from '../util/assert.js';
import type {
  AccountDetail,
  AccountItem,
  AssetDefinitionItem,
  AssetItem,
  DomainItem,
  NftItem,
} from './views.js';

/**
 * Holdings and grants embedded in one account's detail answer; the `/assets` and `/permissions` lists
 * page through the rest (the detail must stay small whatever an account holds).
 */
export const ACCOUNT_DETAIL_ITEMS_MAX = 100;

// Ids in the state were validated when they were registered; a malformed one is a bug, not bad input.
function parts<T>(parsed: T | undefined, id: string): T {
  if (parsed === undefined) throw new AssertionError(`stored id ${id} does not parse`);
  return parsed;
}

export function domainItem(d: Domain): DomainItem {
  return { id: d.id, ownedBy: d.ownedBy, metadata: d.metadata };
}

export function accountItem(a: Account): AccountItem {
  const p = parts(parseAccountId(a.id), a.id);
  return { id: a.id, domain: p.domain, signatory: p.signatory, metadata: a.metadata };
}

export function definitionItem(a: AssetDefinition): AssetDefinitionItem {
  const p = parts(parseDefinitionId(a.id), a.id);
  return {
    id: a.id,
    name: p.name,
    domain: p.domain,
    totalQuantity: a.totalQuantity,
    scale: a.scale,
    mintable: a.mintable,
    ownedBy: a.ownedBy,
    metadata: a.metadata,
  };
}

export function assetItem(a: Asset): AssetItem {
  const p = parts(parseAssetId(a.id), a.id);
  return { id: a.id, definition: p.definition, account: p.account, value: a.value };
}

export function nftItem(n: Nft): NftItem {
  const p = parts(parseNftId(n.id), n.id);
  return { id: n.id, name: p.name, domain: p.domain, ownedBy: n.ownedBy, content: n.content };
}

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function accountDetail(state: StateReader, a: Account): AccountDetail {
  const item = accountItem(a);
  const assets = state.assetsOfAccount(a.id).map(assetItem).sort(byId);
  const permissions = state.permissionsOfAccount(a.id);
  return {
    ...item,
    assets: assets.slice(0, ACCOUNT_DETAIL_ITEMS_MAX),
    assetsTotal: assets.length,
    permissions: permissions.slice(0, ACCOUNT_DETAIL_ITEMS_MAX),
    permissionsTotal: permissions.length,
    roles: [...state.rolesOfAccount(a.id)].sort(),
  };
}

/** Item fields (JSON names) naming an account, a definition or an asset: a filter may give a name there. */
export const ID_FIELDS = {
  account: { id: 'account' },
  domain: { owned_by: 'account' },
  definition: { id: 'definition', owned_by: 'account' },
  asset: { id: 'asset', definition: 'definition', account: 'account' },
  nft: { owned_by: 'account' },
} as const satisfies Record<string, IdFields>;
