// Permission checks (README.md §Permissions; model/permissions.ts). An account holds the union of its
// direct permissions and those of its roles. `Admin` allows everything; owners need no token for their own
// objects; otherwise the instruction's token must be held with exactly the payload naming the object.
// Genesis transactions skip these checks (ExecContext.checkPermissions is false).

import type { Json } from '../codec/codec.js';
import {
  isPermissionName,
  modulePermissionField,
  PERMISSIONS,
  type Permission,
  type PermissionName,
  permissionKey,
} from '../model/permissions.js';
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
  'TransferDelegate',
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
  CanTransferFrom: 'account',
});

/** Whether a token names no object: a core global token, or a module token declared without a field. */
function isGlobal(name: string): boolean {
  return GLOBAL_TOKENS.has(name) || modulePermissionField(name) === null;
}

/** The payload field of a scoped token, the core's or a module's (model/permissions.ts). */
function scopeField(name: string): string | undefined {
  return SCOPED_TOKEN_FIELD[name] ?? modulePermissionField(name) ?? undefined;
}

/** Why a permission cannot be granted or put in a role, or undefined when it is well-formed. */
export function permissionProblem(p: Permission): string | undefined {
  if (!isPermissionName(p.name)) return `unknown permission ${p.name}`;
  const size = jsonValueProblem(p.payload, PERMISSION_PAYLOAD_BYTES_MAX);
  if (size !== undefined) return `payload ${size}`;
  if (isGlobal(p.name)) {
    const empty = p.payload === null || (isObject(p.payload) && Object.keys(p.payload).length === 0);
    return empty ? undefined : `${p.name} takes no payload`;
  }
  const field = scopeField(p.name)!;
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
  const add = (p: Permission) => held.add(isGlobal(p.name) ? p.name : permissionKey(p));
  for (const p of t.accountPermissions.get(account) ?? []) add(p);
  for (const roleId of t.accountRoles.get(account) ?? []) {
    for (const p of t.role.get(roleId)?.permissions ?? []) add(p);
  }
  return held;
}

/**
 * True when `account` holds the scoped token `name` naming `object` (a payload of exactly `{field:
 * object}`), directly or through a role: what `heldTokens(t, account).has(tokenKey(name, object))`
 * answers, without rendering a key for every token held. A transfer delegate holds one grant per
 * account that authorised it, and this runs on each of its debits.
 */
export function holdsScopedToken(t: StateViews, account: string, name: PermissionName, object: string) {
  const field = scopeField(name);
  if (field === undefined) return false;
  const names = (p: Permission) =>
    p.name === name &&
    isObject(p.payload) &&
    p.payload[field] === object &&
    Object.keys(p.payload).length === 1;
  for (const p of t.accountPermissions.get(account) ?? []) if (names(p)) return true;
  for (const roleId of t.accountRoles.get(account) ?? []) {
    for (const p of t.role.get(roleId)?.permissions ?? []) if (names(p)) return true;
  }
  return false;
}

function tokenKey(name: PermissionName, object: string | undefined): string {
  if (object === undefined) return name;
  return permissionKey({ name, payload: { [scopeField(name)!]: object } });
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
  // A delegate acts only on what it owns and what owners granted it (authorizeDebit): no token,
  // not even Admin, widens that, so a misconfigured role cannot turn the bridge into a thief.
  if (held.has(PERMISSIONS.TransferDelegate))
    return fail('permission_denied', `${x.authority} is a transfer delegate: only its own objects`);
  if (held.has(PERMISSIONS.Admin)) return undefined;
  if (token !== undefined && held.has(tokenKey(token, object))) return undefined;
  const need = token === undefined ? 'ownership' : object === undefined ? token : `${token} on ${object}`;
  return fail('permission_denied', `${x.authority} lacks ${need}`);
}

/**
 * A debit (transfer or burn) of `source`'s asset. The source account itself may; a delegate only with
 * the source's `CanTransferFrom { account: source }` grant (else `debit_not_granted`, whatever else it
 * holds); anyone else under the generic rules of `authorize`, or with that grant.
 */
export function authorizeDebit(
  x: ExecContext,
  source: string,
  owners: readonly (string | undefined)[],
  token: PermissionName,
  definition: string,
): Fail | undefined {
  if (!x.checkPermissions || x.authority === source) return undefined;
  if (holdsScopedToken(x.t, x.authority, 'CanTransferFrom', source)) return undefined;
  const held = heldTokens(x.t, x.authority);
  if (held.has(PERMISSIONS.TransferDelegate))
    return fail('debit_not_granted', `${source} has not granted CanTransferFrom to ${x.authority}`);
  return authorize(x, owners, token, definition);
}

/**
 * Who may grant or revoke `p`: `CanTransferFrom { account }` the account itself (an owner hands its
 * funds to a delegate) or a permission manager; anything else a permission manager (+ Admin for Admin).
 */
export function authorizeGrant(x: ExecContext, p: Permission): Fail | undefined {
  const owner =
    p.name === PERMISSIONS.CanTransferFrom && isObject(p.payload) && typeof p.payload.account === 'string'
      ? [p.payload.account]
      : [];
  return authorize(x, owner, 'CanManagePermissions') ?? authorizeEscalation(x, [p]);
}

/** Granting Admin (directly or through a role) needs Admin itself, so CanManage* cannot escalate. */
export function authorizeEscalation(x: ExecContext, permissions: readonly Permission[]): Fail | undefined {
  if (!x.checkPermissions || !permissions.some((p) => p.name === PERMISSIONS.Admin)) return undefined;
  if (heldTokens(x.t, x.authority).has(PERMISSIONS.Admin)) return undefined;
  return fail('permission_denied', 'only an Admin may grant Admin');
}
