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
  /** Held by a delegate (e.g. a bridge account): it may debit `account`. Granted by that account itself. */
  CanTransferFrom: 'CanTransferFrom', // { account }
  /**
   * Marks a delegate account (e.g. a bridge account). Its debits of other accounts need the source's
   * CanTransferFrom grant, and no other token (Admin, roles, domain ownership) counts for it, so a bug in
   * the delegate cannot move funds no owner handed to it (src/state/README.md "Transfer delegates").
   */
  TransferDelegate: 'TransferDelegate',
} as const;

/**
 * The permission tokens the ledger modules declare (docs/design/modules.md), by name: each module adds
 * its own by augmenting this interface (`declare module '…/model/permissions.js' { interface
 * ModulePermissionTokens { … } }`) and declaring them with `declarePermissionTokens`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the modules' augmentations
export interface ModulePermissionTokens {}

export type PermissionName = keyof typeof PERMISSIONS | (keyof ModulePermissionTokens & string);

/** Module tokens by name: the payload field naming the object a token applies to, or null for none. */
const MODULE_TOKENS: Record<string, string | null> = Object.create(null);

/**
 * Declares a module's permission tokens (before the first block executes): each name once, never a core
 * token's; the value is the payload field naming the object it applies to (`asset_definition`, …), or null
 * for a token that names no object.
 */
export function declarePermissionTokens(tokens: Readonly<Record<string, string | null>>): void {
  for (const [name, field] of Object.entries(tokens)) {
    if (Object.hasOwn(PERMISSIONS, name) || Object.hasOwn(MODULE_TOKENS, name))
      throw new Error(`permission token ${name} is declared twice`);
    MODULE_TOKENS[name] = field;
  }
}

/** Whether `name` is a token of the core or of a declared module. */
export function isPermissionName(name: string): name is PermissionName {
  return Object.hasOwn(PERMISSIONS, name) || Object.hasOwn(MODULE_TOKENS, name);
}

/** Every declared module token and its payload field (null: none), by name. */
export function modulePermissionTokens(): Array<[name: string, field: string | null]> {
  return Object.keys(MODULE_TOKENS)
    .sort()
    .map((name) => [name, MODULE_TOKENS[name]!]);
}

/** A module token's payload field (null: it names no object), or undefined for a core or unknown token. */
export function modulePermissionField(name: string): string | null | undefined {
  return Object.hasOwn(MODULE_TOKENS, name) ? MODULE_TOKENS[name] : undefined;
}
