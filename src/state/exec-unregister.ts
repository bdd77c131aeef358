// Unregister* instructions (README.md §Instructions). Check order: object exists → permission → state
// rules. Removing an account also removes what hangs off it (assets, permissions, roles) with one data
// event per removed item, in sorted id order so every peer emits the same sequence; the installed
// modules refuse or drop their own dependent rows through their removal hooks (module-host.ts
// `removalRefusal`, `removeDependents`).

import { parseAccountId, parseDefinitionId, parseNftId } from '../model/ids.js';
import { assert } from '../util/assert.js';
import { authorize, authorizeEscalation } from './authorize.js';
import { type ExecContext, fail, type Handler } from './exec-context.js';
import { removalRefusal, removeDependents } from './module-host.js';

function domainOwner(x: ExecContext, domain: string | undefined): string | undefined {
  return domain === undefined ? undefined : x.t.domain.get(domain)?.ownedBy;
}

export const unregisterDomain: Handler<'UnregisterDomain'> = (x, ins) => {
  const domain = x.t.domain.get(ins.id);
  if (domain === undefined) return fail('domain_not_found', `no domain ${ins.id}`);
  const denied = authorize(x, [domain.ownedBy], 'CanUnregisterDomain', ins.id);
  if (denied) return denied;
  if (x.view.meta().genesisDomain === ins.id)
    return fail('reserved_domain', `${ins.id} is the genesis domain`);
  const held =
    x.t.account.children('accountsByDomain', ins.id).length +
    x.t.assetDefinition.children('definitionsByDomain', ins.id).length +
    x.t.nft.children('nftsByDomain', ins.id).length;
  if (held > 0) return fail('domain_not_empty', `domain ${ins.id} still holds ${held} objects`);
  removeDependents(x, { kind: 'domain', id: ins.id });
  x.t.domain.delete(ins.id);
  x.emit({ kind: 'DomainDeleted', id: ins.id });
  return undefined;
};

/** Removes every asset of `account`, lowering each definition's total (conservation: sum = total). */
function removeAssets(x: ExecContext, account: string): void {
  for (const assetId of x.t.asset.children('assetsByAccount', account)) {
    const asset = x.t.asset.get(assetId)!;
    const definitionId = assetId.slice(0, assetId.length - account.length - 1);
    const definition = x.t.assetDefinition.get(definitionId);
    assert(definition !== undefined, `asset ${assetId} without its definition`);
    const total = definition.totalQuantity.mantissa - asset.value.mantissa;
    assert(total >= 0n, `definition ${definitionId} total below its holdings`);
    x.t.assetDefinition.set(definitionId, {
      ...definition,
      totalQuantity: { mantissa: total, scale: definition.scale },
    });
    x.t.asset.delete(assetId);
    x.emit({ kind: 'AssetRemoved', id: assetId, amount: asset.value });
    x.emit({
      kind: 'AssetDefinitionTotalChanged',
      id: definitionId,
      total: { mantissa: total, scale: definition.scale },
    });
  }
}

export const unregisterAccount: Handler<'UnregisterAccount'> = (x, ins) => {
  if (!x.t.account.has(ins.id)) return fail('account_not_found', `no account ${ins.id}`);
  const denied = authorize(x, [domainOwner(x, parseAccountId(ins.id)?.domain)]);
  if (denied) return denied;
  const refused = removalRefusal(x, { kind: 'account', id: ins.id });
  if (refused) return refused;
  removeAssets(x, ins.id);
  removeDependents(x, { kind: 'account', id: ins.id });
  for (const permission of x.t.accountPermissions.get(ins.id) ?? []) {
    x.emit({ kind: 'PermissionRevoked', account: ins.id, permission });
  }
  for (const role of x.t.accountRoles.get(ins.id) ?? [])
    x.emit({ kind: 'RoleRevoked', account: ins.id, role });
  x.t.accountPermissions.delete(ins.id);
  x.t.accountRoles.delete(ins.id);
  x.t.account.delete(ins.id);
  x.emit({ kind: 'AccountDeleted', id: ins.id });
  return undefined;
};

export const unregisterAssetDefinition: Handler<'UnregisterAssetDefinition'> = (x, ins) => {
  const definition = x.t.assetDefinition.get(ins.id);
  if (definition === undefined) return fail('asset_definition_not_found', `no asset definition ${ins.id}`);
  const denied = authorize(x, [domainOwner(x, parseDefinitionId(ins.id)?.domain)]);
  if (denied) return denied;
  // Balances are never destroyed implicitly: holders must burn (or the owner unregister accounts) first.
  if (definition.totalQuantity.mantissa !== 0n) {
    return fail('invalid_amount', `total quantity of ${ins.id} is not zero; burn every balance first`);
  }
  assert(
    x.t.asset.children('assetsByDefinition', ins.id).length === 0,
    `zero-total ${ins.id} still has holders`,
  );
  removeDependents(x, { kind: 'assetDefinition', id: ins.id });
  x.t.assetDefinition.delete(ins.id);
  x.emit({ kind: 'AssetDefinitionDeleted', id: ins.id });
  return undefined;
};

export const unregisterNft: Handler<'UnregisterNft'> = (x, ins) => {
  if (!x.t.nft.has(ins.id)) return fail('nft_not_found', `no NFT ${ins.id}`);
  const denied = authorize(x, [domainOwner(x, parseNftId(ins.id)?.domain)]);
  if (denied) return denied;
  x.t.nft.delete(ins.id);
  x.emit({ kind: 'NftDeleted', id: ins.id });
  return undefined;
};

export const unregisterRole: Handler<'UnregisterRole'> = (x, ins) => {
  const role = x.t.role.get(ins.id);
  if (role === undefined) return fail('role_not_found', `no role ${ins.id}`);
  const denied = authorize(x, [], 'CanManageRoles') ?? authorizeEscalation(x, role.permissions);
  if (denied) return denied;
  for (const account of x.t.accountRoles.children('holdersByRole', ins.id)) {
    const rest = x.t.accountRoles.get(account)!.filter((r) => r !== ins.id);
    if (rest.length === 0) x.t.accountRoles.delete(account);
    else x.t.accountRoles.set(account, rest);
    x.emit({ kind: 'RoleRevoked', account, role: ins.id });
  }
  x.t.role.delete(ins.id);
  x.emit({ kind: 'RoleDeleted', id: ins.id });
  return undefined;
};

/**
 * Disables a peer at once: the row stays (key lifecycle history) with `disabledAt` set to this height.
 * Check order: peer live → permission → not the last live validator.
 */
export const unregisterPeer: Handler<'UnregisterPeer'> = (x, ins) => {
  const peer = x.t.peer.get(ins.peer);
  if (peer === undefined || peer.disabledAt !== undefined)
    return fail('peer_not_found', `no peer ${ins.peer}`);
  const denied = authorize(x, [], 'CanManagePeers');
  if (denied) return denied;
  if (x.t.peer.children('livePeers', '').length <= 1) {
    return fail('last_validator', `peer ${ins.peer} is the last validator`);
  }
  x.t.peer.set(ins.peer, { ...peer, disabledAt: x.block.height });
  x.emit({ kind: 'PeerRemoved', peer: ins.peer });
  return undefined;
};
