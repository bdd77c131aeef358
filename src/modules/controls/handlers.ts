// Transfer control instructions (docs/controls.md §Instructions): SetTransferFreeze,
// SetTransferBlacklist, SetTransferListEntry, SetTransferCap. Check order: definition exists → account
// exists (when named) → permission (the definition's owner, Admin, or CanManageTransferControls
// {asset_definition}) → values (cap amount, list size). Setting a rule to what it already is succeeds
// and emits its event again. A row back at its all-clear default is deleted.

import { assetId } from '../../model/ids.js';
import { toScale } from '../../state/amounts.js';
import { authorize } from '../../state/authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import type { RemovalHook } from '../../state/module-host.js';
import type { AssetControl, DefinitionControl } from './model.js';
import { CONTROL_LIST_ENTRIES_MAX } from './model.js';
import { MANAGE_CONTROLS } from './permissions.js';
import {
  clearAssetControl,
  clearDefinitionControl,
  isClearAsset,
  isClearDefinition,
  withCap,
  withEntry,
} from './rows.js';

interface Target {
  readonly definition: string;
  readonly scale: number;
}

/** The definition, the account when named, and the permission: the common checks. */
function target(x: ExecContext, definition: string, account: string | undefined): Target | Fail {
  const d = x.t.assetDefinition.get(definition);
  if (d === undefined) return fail('asset_definition_not_found', `no asset definition ${definition}`);
  if (account !== undefined && !x.t.account.has(account))
    return fail('account_not_found', `no account ${account}`);
  const denied = authorize(x, [d.ownedBy], MANAGE_CONTROLS, definition);
  return denied ?? { definition, scale: d.scale };
}

const isFail = (v: Target | Fail): v is Fail => 'code' in v;
const who = (account: string | undefined) => (account === undefined ? {} : { account });

function editDefinition(
  x: ExecContext,
  definition: string,
  edit: (c: DefinitionControl) => DefinitionControl,
): void {
  const next = edit(x.t.definitionControl.get(definition) ?? clearDefinitionControl(definition));
  if (isClearDefinition(next)) x.t.definitionControl.delete(definition);
  else x.t.definitionControl.set(definition, next);
}

function editAccount(
  x: ExecContext,
  definition: string,
  account: string,
  edit: (c: AssetControl) => AssetControl,
): void {
  const id = assetId(definition, account);
  const next = edit(x.t.assetControl.get(id) ?? clearAssetControl(definition, account));
  if (isClearAsset(next)) x.t.assetControl.delete(id);
  else x.t.assetControl.set(id, next);
}

export const setTransferFreeze: Handler<'SetTransferFreeze'> = (x, ins) => {
  const t = target(x, ins.definition, ins.account);
  if (isFail(t)) return t;
  const frozen = ins.frozen;
  if (ins.account === undefined) editDefinition(x, ins.definition, (c) => ({ ...c, outgoingFrozen: frozen }));
  else editAccount(x, ins.definition, ins.account, (c) => ({ ...c, outgoingFrozen: frozen }));
  x.emit({ kind: 'ControlFreezeSet', definition: ins.definition, ...who(ins.account), frozen });
  return undefined;
};

export const setTransferBlacklist: Handler<'SetTransferBlacklist'> = (x, ins) => {
  const t = target(x, ins.definition, ins.account);
  if (isFail(t)) return t;
  const blacklisted = ins.blacklisted;
  if (ins.account === undefined) editDefinition(x, ins.definition, (c) => ({ ...c, blacklisted }));
  else editAccount(x, ins.definition, ins.account, (c) => ({ ...c, blacklisted }));
  x.emit({ kind: 'ControlBlacklistSet', definition: ins.definition, ...who(ins.account), blacklisted });
  return undefined;
};

export const setTransferListEntry: Handler<'SetTransferListEntry'> = (x, ins) => {
  const t = target(x, ins.definition, ins.account);
  if (isFail(t)) return t;
  const field = ins.list.kind === 'Allow' ? 'allowList' : 'denyList';
  const current = x.t.definitionControl.get(ins.definition)?.[field] ?? [];
  const list = withEntry(current, ins.account, ins.listed);
  if (list.length > CONTROL_LIST_ENTRIES_MAX)
    return fail(
      'execution_limit',
      `a ${ins.list.kind} list holds at most ${CONTROL_LIST_ENTRIES_MAX} accounts`,
    );
  editDefinition(x, ins.definition, (c) => ({ ...c, [field]: list }));
  x.emit({
    kind: 'ControlListEntrySet',
    definition: ins.definition,
    list: ins.list,
    account: ins.account,
    listed: ins.listed,
  });
  return undefined;
};

export const setTransferCap: Handler<'SetTransferCap'> = (x, ins) => {
  const t = target(x, ins.definition, ins.account);
  if (isFail(t)) return t;
  let cap: { mantissa: bigint; scale: number } | undefined;
  if (ins.cap !== undefined) {
    const s = toScale(ins.cap, t.scale);
    if (!s.ok)
      return s.why === 'overflow'
        ? fail('overflow', 'the cap exceeds the 128-bit mantissa at the definition scale')
        : fail('invalid_amount', `a cap is > 0 with at most ${t.scale} fraction digits`);
    cap = { mantissa: s.mantissa, scale: t.scale };
  }
  const w = ins.window.kind;
  if (ins.account === undefined)
    editDefinition(x, ins.definition, (c) => ({ ...c, limits: withCap(c.limits, w, cap) }));
  else
    editAccount(x, ins.definition, ins.account, (c) => ({
      ...c,
      limits: withCap(c.limits, w, cap),
      // An account's usage of a window it no longer caps is dropped at its next debit (check.ts).
    }));
  x.emit({
    kind: 'ControlCapSet',
    definition: ins.definition,
    ...who(ins.account),
    window: ins.window,
    ...(cap === undefined ? {} : { cap }),
  });
  return undefined;
};

/** Cascade of UnregisterAccount: the account's control rows go with it (no event: the account is gone). */
export function removeAccountControls(x: ExecContext, account: string): void {
  for (const id of x.t.assetControl.children('controlsByAccount', account)) x.t.assetControl.delete(id);
}

/** Cascade of UnregisterAssetDefinition: its definition-wide row and every account row of it. */
export function removeDefinitionControls(x: ExecContext, definition: string): void {
  for (const id of x.t.assetControl.children('controlsByDefinition', definition)) x.t.assetControl.delete(id);
  x.t.definitionControl.delete(definition);
}

/** The module's removal hook (state/module-host.ts): control rows go with their account or definition. */
export const CONTROLS_REMOVAL: RemovalHook = {
  drop: (x, removed) => {
    if (removed.kind === 'account') removeAccountControls(x, removed.id);
    else if (removed.kind === 'assetDefinition') removeDefinitionControls(x, removed.id);
  },
};
