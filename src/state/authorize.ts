// Permission checks (README.md §Permissions; model/permissions.ts). An account holds the union of its
// direct permissions and those of its roles. `Admin` allows everything; owners need no token for their own
// objects; otherwise the instruction's token must be held with exactly the payload naming the object.
// Genesis transactions skip these checks (ExecContext.checkPermissions is false).

import type { Json } from '../codec/codec.js';
import { PERMISSIONS, type Permission, type PermissionName, permissionKey } from '../model/permissions.js';
import type { ExecContext, Fail } from './exec-context.js';
import { fail } from './exec-context.js';
import type { StateViews } from './state-view.js';
import { jsonValueProblem, PERMISSION_PAYLOAD_BYTES_MAX } from './validate.js';

/** Tokens that name no object; their payload must be null or {} and is ignored when matching. */
export const GLOBAL_TOKENS: ReadonlySet<string> = new Set<PermissionName>([
  'Admin',
  'CanRegisterDomain',
  'CanManageRoles',
  'CanManagePermissions',
  'CanManagePeers',
  'CanSetParameters',
  'CanManageRuntimeUpgrades',
]);

/** The single payload field each scoped token carries (model/permissions.ts comments). */
export const SCOPED_TOKEN_FIELD: Readonly<Record<string, string>> = Object.freeze({
  CanUnregisterDomain: 'domain',
  CanRegisterAccountInDomain: 'domain',
  CanRegisterAssetDefinitionInDomain: 'domain',
  CanMintAssetWithDefinition: 'asset_definition',
  CanBurnAssetWithDefinition: 'asset_definition',
  CanTransferAssetWithDefinition: 'asset_definition',
  CanModifyMetadata: 'target',
});

/** Why a permission cannot be granted or put in a role, or undefined when it is well-formed. */
export function permissionProblem(p: Permission): string | undefined {
  if (!Object.hasOwn(PERMISSIONS, p.name)) return `unknown permission ${p.name}`;
  const size = jsonValueProblem(p.payload, PERMISSION_PAYLOAD_BYTES_MAX);
  if (size !== undefined) return `payload ${size}`;
  if (GLOBAL_TOKENS.has(p.name)) {
    const empty = p.payload === null || (isObject(p.payload) && Object.keys(p.payload).length === 0);
    return empty ? undefined : `${p.name} takes no payload`;
  }
  const field = SCOPED_TOKEN_FIELD[p.name]!;
  const ok =
    isObject(p.payload) && Object.keys(p.payload).length === 1 && typeof p.payload[field] === 'string';
  return ok ? undefined : `${p.name} needs the payload {"${field}": "<id>"}`;
}

function isObject(j: Json): j is { [k: string]: Json } {
  return typeof j === 'object' && j !== null && !Array.isArray(j);
}

/** Everything `account` holds: exact permission keys plus the names of global tokens. */
export function heldTokens(t: StateViews, account: string): Set<string> {
  const held = new Set<string>();
  const add = (p: Permission) => held.add(GLOBAL_TOKENS.has(p.name) ? p.name : permissionKey(p));
  for (const p of t.accountPermissions.get(account) ?? []) add(p);
  for (const roleId of t.accountRoles.get(account) ?? []) {
    for (const p of t.role.get(roleId)?.permissions ?? []) add(p);
  }
  return held;
}

function tokenKey(name: PermissionName, object: string | undefined): string {
  if (object === undefined) return name;
  return permissionKey({ name, payload: { [SCOPED_TOKEN_FIELD[name]!]: object } });
}

/**
 * Allows when checks are off (genesis), the authority is one of `owners`, holds Admin, or holds
 * `token` (for scoped tokens, with the payload naming `object`).
 */
export function authorize(
  x: ExecContext,
  owners: readonly (string | undefined)[],
  token?: PermissionName,
  object?: string,
): Fail | undefined {
  if (!x.checkPermissions) return undefined;
  if (owners.includes(x.authority)) return undefined;
  const held = heldTokens(x.t, x.authority);
  if (held.has(PERMISSIONS.Admin)) return undefined;
  if (token !== undefined && held.has(tokenKey(token, object))) return undefined;
  const need = token === undefined ? 'ownership' : object === undefined ? token : `${token} on ${object}`;
  return fail('permission_denied', `${x.authority} lacks ${need}`);
}

/** Granting Admin (directly or through a role) needs Admin itself, so CanManage* cannot escalate. */
export function authorizeEscalation(x: ExecContext, permissions: readonly Permission[]): Fail | undefined {
  if (!x.checkPermissions || !permissions.some((p) => p.name === PERMISSIONS.Admin)) return undefined;
  if (heldTokens(x.t, x.authority).has(PERMISSIONS.Admin)) return undefined;
  return fail('permission_denied', 'only an Admin may grant Admin');
}
