// Permissions and roles (docs/data-model.md §Permissions). A permission is a named token with a JSON
// payload naming what it applies to, e.g. { name: 'CanMintAssetWithDefinition', payload: { asset_definition: 'rose#wonderland' } }.

import type { Json } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import { canonicalJson } from '../codec/json.js';
import { jsonValue } from '../codec/primitives.js';
import { Name } from './names.js';

export const PermissionCodec = struct('Permission', { name: Name, payload: jsonValue(4096) });
export interface Permission {
  name: string;
  payload: Json;
}

/** The identity of a permission: its name and canonical payload (so grants deduplicate exactly). */
export function permissionKey(p: Permission): string {
  return `${p.name}\u0000${canonicalJson(p.payload)}`;
}

/**
 * The permission tokens the executor understands (docs/data-model.md §Permissions). Owners need no token
 * for their own objects: an account over its assets and metadata, a domain owner over everything
 * registered in the domain, a definition owner over minting and burning its assets.
 */
export const PERMISSIONS = {
  /** Everything. The dev genesis grants it to the admin account. */
  Admin: 'Admin',
  CanRegisterDomain: 'CanRegisterDomain',
  CanUnregisterDomain: 'CanUnregisterDomain', // { domain }
  CanRegisterAccountInDomain: 'CanRegisterAccountInDomain', // { domain }
  CanRegisterAssetDefinitionInDomain: 'CanRegisterAssetDefinitionInDomain', // { domain }
  CanMintAssetWithDefinition: 'CanMintAssetWithDefinition', // { asset_definition }
  CanBurnAssetWithDefinition: 'CanBurnAssetWithDefinition', // { asset_definition }
  CanTransferAssetWithDefinition: 'CanTransferAssetWithDefinition', // { asset_definition }
  CanModifyMetadata: 'CanModifyMetadata', // { target }
  CanManageRoles: 'CanManageRoles',
  CanManagePermissions: 'CanManagePermissions',
  CanManagePeers: 'CanManagePeers',
  CanSetParameters: 'CanSetParameters',
  CanManageRuntimeUpgrades: 'CanManageRuntimeUpgrades',
  /** Held by a delegate (the ISO 20022 bridge): it may debit `account`. Granted by that account itself. */
  CanTransferFrom: 'CanTransferFrom', // { account }
  /**
   * Marks a delegate account (the ISO 20022 bridge). Its debits of other accounts need the source's
   * CanTransferFrom grant, and no other token (Admin, roles, domain ownership) counts for it, so a bug in
   * the delegate cannot move funds no owner handed to it (docs/iso20022.md "The bridge account").
   */
  TransferDelegate: 'TransferDelegate',
  /** Sets a definition's transfer controls (docs/controls.md), like its owner. */
  CanManageTransferControls: 'CanManageTransferControls', // { asset_definition }
} as const;
export type PermissionName = keyof typeof PERMISSIONS;
