// Asset alias instructions (docs/data-model.md §Aliases). A definition has at most one alias; a literal
// names at most one definition. The lease is evaluated against the block time (leaseStatus), so every
// peer decides alike. Who may act: whoever may set the definition's metadata (its owner, its domain's
// owner, CanModifyMetadata {"target": "<definition>"}, Admin); anyone may remove an expired alias.

import { parseDefinitionId } from '../../model/ids.js';
import { authorize } from '../../state/authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from '../../state/exec-context.js';
import { ALIAS_GRACE_MS_MAX, assetAliasProblem } from './literal.js';
import { type AssetAlias, leaseStatus } from './rows.js';

function authorizeDefinition(x: ExecContext, definition: string): Fail | undefined {
  const d = x.t.assetDefinition.get(definition);
  const domain = parseDefinitionId(definition)?.domain;
  const domainOwner = domain === undefined ? undefined : x.t.domain.get(domain)?.ownedBy;
  return authorize(x, [d?.ownedBy, domainOwner], 'CanModifyMetadata', definition);
}

function literalFail(alias: string): Fail | undefined {
  const p = assetAliasProblem(alias);
  if (p === undefined) return undefined;
  return fail(p.kind === 'account_id' ? 'alias_is_account_id' : 'alias_invalid', p.message);
}

function remove(x: ExecContext, row: AssetAlias): void {
  x.t.assetAlias.delete(row.alias);
  x.emit({ kind: 'AssetAliasRemoved', alias: row.alias, definition: row.definition });
}

/** Binds (or re-leases) an alias to a definition; an expired alias of another definition is taken over. */
export const setAssetAlias: Handler<'SetAssetAlias'> = (x, ins) => {
  const bad = literalFail(ins.alias);
  if (bad) return bad;
  if (!x.t.assetDefinition.has(ins.definition))
    return fail('asset_definition_not_found', `no asset definition ${ins.definition}`);
  const denied = authorizeDefinition(x, ins.definition);
  if (denied) return denied;
  const lease = ins.lease;
  if (
    lease !== undefined &&
    (lease.expiresAtMs <= BigInt(x.block.blockTimeMs) || lease.graceMs > ALIAS_GRACE_MS_MAX)
  )
    return fail(
      'alias_lease_invalid',
      `the lease must end after the block time, with a grace ≤ ${ALIAS_GRACE_MS_MAX} ms`,
    );
  const held = x.t.assetAlias.get(ins.alias);
  if (held !== undefined && held.definition !== ins.definition) {
    if (leaseStatus(held.lease, x.block.blockTimeMs) !== 'expired_pending_cleanup')
      return fail('alias_already_bound', `${ins.alias} names ${held.definition}`);
    remove(x, held);
  }
  for (const other of x.t.assetAlias.children('aliasesByDefinition', ins.definition))
    if (other !== ins.alias) remove(x, x.t.assetAlias.get(other)!);
  const row: AssetAlias = { alias: ins.alias, definition: ins.definition };
  if (lease !== undefined) row.lease = { ...lease };
  x.t.assetAlias.set(ins.alias, row);
  x.emit({ kind: 'AssetAliasSet', ...row });
  return undefined;
};

/** Extends an expiring lease that is active or in grace; the new end must be later than the old one. */
export const renewAssetAlias: Handler<'RenewAssetAlias'> = (x, ins) => {
  const bad = literalFail(ins.alias);
  if (bad) return bad;
  const row = x.t.assetAlias.get(ins.alias);
  if (row === undefined) return fail('alias_not_found', `no asset alias ${ins.alias}`);
  const denied = authorizeDefinition(x, row.definition);
  if (denied) return denied;
  const status = leaseStatus(row.lease, x.block.blockTimeMs);
  if (row.lease === undefined) return fail('alias_lease_invalid', `${ins.alias} is permanent`);
  if (status === 'expired_pending_cleanup') return fail('alias_lease_expired', `${ins.alias} has expired`);
  if (ins.expiresAtMs <= row.lease.expiresAtMs || ins.expiresAtMs <= BigInt(x.block.blockTimeMs))
    return fail('alias_lease_invalid', 'a renewal must end later than the current lease and the block time');
  const next: AssetAlias = { ...row, lease: { expiresAtMs: ins.expiresAtMs, graceMs: row.lease.graceMs } };
  x.t.assetAlias.set(ins.alias, next);
  x.emit({ kind: 'AssetAliasSet', alias: next.alias, definition: next.definition, lease: next.lease! });
  return undefined;
};

export const removeAssetAlias: Handler<'RemoveAssetAlias'> = (x, ins) => {
  const bad = literalFail(ins.alias);
  if (bad) return bad;
  const row = x.t.assetAlias.get(ins.alias);
  if (row === undefined) return fail('alias_not_found', `no asset alias ${ins.alias}`);
  if (leaseStatus(row.lease, x.block.blockTimeMs) !== 'expired_pending_cleanup') {
    const denied = authorizeDefinition(x, row.definition);
    if (denied) return denied;
  }
  remove(x, row);
  return undefined;
};

/** Cascade of UnregisterAssetDefinition: its alias goes with it. */
export function removeDefinitionAliases(x: ExecContext, definition: string): void {
  for (const alias of x.t.assetAlias.children('aliasesByDefinition', definition))
    remove(x, x.t.assetAlias.get(alias)!);
}
