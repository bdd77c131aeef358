// Account alias instructions (docs/data-model.md §Aliases). Check order for each: literal → the alias
// (or its domain) exists → accounts exist → permission → state rules. "Controls an account" means what
// SetKeyValue on that account needs: the account itself, its domain's owner, CanModifyMetadata
// {"target": "<account>"}, or Admin. Binding in a domain other than the account's also needs the alias
// domain's owner (or CanModifyMetadata on that domain), so nobody squats names in a foreign domain.

import { parseAccountId } from '../../model/ids.js';
import { authorize } from '../../state/authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import { SINGLETON_ID } from '../../state/keys.js';
import { accountAliasProblem, aliasDomain } from './literal.js';
import type { AccountAlias } from './rows.js';

function domainOwner(x: ExecContext, domain: string | undefined): string | undefined {
  return domain === undefined ? undefined : x.t.domain.get(domain)?.ownedBy;
}

/** Whether the authority controls `account` (see the header). */
export function authorizeAccount(x: ExecContext, account: string): Fail | undefined {
  const owners = [account, domainOwner(x, parseAccountId(account)?.domain)];
  return authorize(x, owners, 'CanModifyMetadata', account);
}

function literalFail(alias: string): Fail | undefined {
  const p = accountAliasProblem(alias);
  if (p === undefined) return undefined;
  return fail(p.kind === 'account_id' ? 'alias_is_account_id' : 'alias_invalid', p.message);
}

/** The bound alias, or the failing check (literal, then alias_not_found). */
function bound(x: ExecContext, alias: string): AccountAlias | Fail {
  const bad = literalFail(alias);
  if (bad) return bad;
  return x.t.accountAlias.get(alias) ?? fail('alias_not_found', `no account alias ${alias}`);
}

function isFail(v: AccountAlias | Fail): v is Fail {
  return 'code' in v;
}

function hasPrimary(x: ExecContext, account: string): boolean {
  return x.t.accountAlias.children('aliasesByAccount', account).some((a) => x.t.accountAlias.get(a)!.primary);
}

export const registerAccountAlias: Handler<'RegisterAccountAlias'> = (x, ins) => {
  const bad = literalFail(ins.alias);
  if (bad) return bad;
  const domain = aliasDomain(ins.alias);
  if (!x.t.domain.has(domain)) return fail('domain_not_found', `no domain ${domain}`);
  if (!x.t.account.has(ins.account)) return fail('account_not_found', `no account ${ins.account}`);
  const denied =
    authorizeAccount(x, ins.account) ??
    (parseAccountId(ins.account)?.domain === domain
      ? undefined
      : authorize(x, [domainOwner(x, domain)], 'CanModifyMetadata', domain));
  if (denied) return denied;
  const held = x.t.accountAlias.get(ins.alias);
  if (held !== undefined) return fail('alias_already_bound', `${ins.alias} is bound to ${held.account}`);
  const index = (x.t.aliasCounter.get(SINGLETON_ID)?.lastIndex ?? 0) + 1;
  x.t.aliasCounter.set(SINGLETON_ID, { lastIndex: index });
  const primary = !hasPrimary(x, ins.account);
  x.t.accountAlias.set(ins.alias, { alias: ins.alias, account: ins.account, index, primary });
  x.emit({ kind: 'AccountAliasBound', alias: ins.alias, account: ins.account, index });
  if (primary) x.emit({ kind: 'AccountAliasPrimarySet', alias: ins.alias, account: ins.account });
  return undefined;
};

/** Moves an alias to another account; the authority must control both. It arrives non-primary unless
 * the destination has no primary alias. */
export const transferAccountAlias: Handler<'TransferAccountAlias'> = (x, ins) => {
  const row = bound(x, ins.alias);
  if (isFail(row)) return row;
  if (!x.t.account.has(ins.destination)) return fail('account_not_found', `no account ${ins.destination}`);
  if (row.account === ins.destination) return fail('same_account', `${ins.alias} is bound to it already`);
  const denied = authorizeAccount(x, row.account) ?? authorizeAccount(x, ins.destination);
  if (denied) return denied;
  const primary = !hasPrimary(x, ins.destination);
  x.t.accountAlias.set(ins.alias, { ...row, account: ins.destination, primary });
  x.emit({ kind: 'AccountAliasUnbound', alias: ins.alias, account: row.account, index: row.index });
  x.emit({ kind: 'AccountAliasBound', alias: ins.alias, account: ins.destination, index: row.index });
  if (primary) x.emit({ kind: 'AccountAliasPrimarySet', alias: ins.alias, account: ins.destination });
  return undefined;
};

/** Unbinds an alias: whoever controls its account, or the alias domain's owner (namespace reclaim). */
export const removeAccountAlias: Handler<'RemoveAccountAlias'> = (x, ins) => {
  const row = bound(x, ins.alias);
  if (isFail(row)) return row;
  if (x.checkPermissions && domainOwner(x, aliasDomain(ins.alias)) !== x.authority) {
    const denied = authorizeAccount(x, row.account);
    if (denied) return denied;
  }
  unbind(x, row);
  return undefined;
};

export const setPrimaryAccountAlias: Handler<'SetPrimaryAccountAlias'> = (x, ins) => {
  const row = bound(x, ins.alias);
  if (isFail(row)) return row;
  const denied = authorizeAccount(x, row.account);
  if (denied) return denied;
  for (const other of x.t.accountAlias.children('aliasesByAccount', row.account)) {
    const o = x.t.accountAlias.get(other)!;
    if (o.primary && other !== ins.alias) x.t.accountAlias.set(other, { ...o, primary: false });
  }
  if (!row.primary) x.t.accountAlias.set(ins.alias, { ...row, primary: true });
  x.emit({ kind: 'AccountAliasPrimarySet', alias: ins.alias, account: row.account });
  return undefined;
};

function unbind(x: ExecContext, row: AccountAlias): void {
  x.t.accountAlias.delete(row.alias);
  x.emit({ kind: 'AccountAliasUnbound', alias: row.alias, account: row.account, index: row.index });
}

/** Cascade of UnregisterAccount: its aliases go with it, in sorted order. */
export function unbindAccountAliases(x: ExecContext, account: string): void {
  for (const alias of x.t.accountAlias.children('aliasesByAccount', account))
    unbind(x, x.t.accountAlias.get(alias)!);
}

/** Cascade of UnregisterDomain: aliases in the domain (bound to accounts elsewhere) go with it. */
export function unbindDomainAliases(x: ExecContext, domain: string): void {
  for (const alias of x.t.accountAlias.children('aliasesByDomain', domain))
    unbind(x, x.t.accountAlias.get(alias)!);
}
