// GrantPermission, RevokePermission, GrantRole, RevokeRole (README.md §Instructions). Permissions need
// CanManagePermissions, roles CanManageRoles (or Admin); handing out or taking away Admin needs Admin.
// Granting what is already held is refused (already_exists) and revoking what is not held directly is
// refused (permission_not_held), so every accepted grant or revoke is a real change with one event.

import { nameProblem } from '../model/names.js';
import { type Permission, permissionKey } from '../model/permissions.js';
import { authorize, authorizeEscalation, authorizeGrant, permissionProblem } from './authorize.js';
import { fail, type Handler } from './exec-context.js';
import { jsonValueProblem, PERMISSION_PAYLOAD_BYTES_MAX } from './validate.js';

export const grantPermission: Handler<'GrantPermission'> = (x, ins) => {
  if (!x.t.account.has(ins.account)) return fail('account_not_found', `no account ${ins.account}`);
  const denied = authorizeGrant(x, ins.permission);
  if (denied) return denied;
  const problem = permissionProblem(ins.permission);
  if (problem !== undefined) return fail('invalid_parameter', problem);
  const key = permissionKey(ins.permission);
  const held = x.t.accountPermissions.get(ins.account) ?? [];
  if (held.some((p) => permissionKey(p) === key))
    return fail('already_exists', `${ins.account} already holds it`);
  const permission: Permission = {
    name: ins.permission.name,
    payload: structuredClone(ins.permission.payload),
  };
  const next = [...held, permission].sort((a, b) => (permissionKey(a) < permissionKey(b) ? -1 : 1));
  x.t.accountPermissions.set(ins.account, next);
  x.emit({ kind: 'PermissionGranted', account: ins.account, permission });
  return undefined;
};

export const revokePermission: Handler<'RevokePermission'> = (x, ins) => {
  if (!x.t.account.has(ins.account)) return fail('account_not_found', `no account ${ins.account}`);
  const denied = authorizeGrant(x, ins.permission);
  if (denied) return denied;
  // A payload that is not a finite JSON value cannot be held (grants are validated), and has no key.
  if (jsonValueProblem(ins.permission.payload, PERMISSION_PAYLOAD_BYTES_MAX) !== undefined) {
    return fail('permission_not_held', `${ins.account} does not hold it directly`);
  }
  const key = permissionKey(ins.permission);
  const held = x.t.accountPermissions.get(ins.account) ?? [];
  const rest = held.filter((p) => permissionKey(p) !== key);
  if (rest.length === held.length)
    return fail('permission_not_held', `${ins.account} does not hold it directly`);
  if (rest.length === 0) x.t.accountPermissions.delete(ins.account);
  else x.t.accountPermissions.set(ins.account, rest);
  x.emit({ kind: 'PermissionRevoked', account: ins.account, permission: ins.permission });
  return undefined;
};

export const grantRole: Handler<'GrantRole'> = (x, ins) => {
  if (!x.t.account.has(ins.account)) return fail('account_not_found', `no account ${ins.account}`);
  const role = nameProblem(ins.role) === undefined ? x.t.role.get(ins.role) : undefined;
  if (role === undefined) return fail('role_not_found', `no role ${ins.role}`);
  const denied = authorize(x, [], 'CanManageRoles') ?? authorizeEscalation(x, role.permissions);
  if (denied) return denied;
  const held = x.t.accountRoles.get(ins.account) ?? [];
  if (held.includes(ins.role)) return fail('already_exists', `${ins.account} already holds role ${ins.role}`);
  x.t.accountRoles.set(ins.account, [...held, ins.role].sort());
  x.emit({ kind: 'RoleGranted', account: ins.account, role: ins.role });
  return undefined;
};

export const revokeRole: Handler<'RevokeRole'> = (x, ins) => {
  if (!x.t.account.has(ins.account)) return fail('account_not_found', `no account ${ins.account}`);
  const role = x.t.role.get(ins.role);
  if (role === undefined) return fail('role_not_found', `no role ${ins.role}`);
  const denied = authorize(x, [], 'CanManageRoles') ?? authorizeEscalation(x, role.permissions);
  if (denied) return denied;
  const held = x.t.accountRoles.get(ins.account) ?? [];
  if (!held.includes(ins.role))
    return fail('permission_not_held', `${ins.account} does not hold role ${ins.role}`);
  const rest = held.filter((r) => r !== ins.role);
  if (rest.length === 0) x.t.accountRoles.delete(ins.account);
  else x.t.accountRoles.set(ins.account, rest);
  x.emit({ kind: 'RoleRevoked', account: ins.account, role: ins.role });
  return undefined;
};
