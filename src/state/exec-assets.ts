// MintAsset, BurnAsset, TransferAsset (README.md §Instructions). Amounts are exact mantissas at the
// definition's scale; a zero balance deletes the asset row, so "no row" and "balance 0" are one state.
// Invariant kept by every path: the balances of a definition sum to its total quantity. Balances change
// only through moveValue (exec-value.ts), which runs the installed modules' transfer checks.

import type { AssetDefinition } from '../model/entities.js';
import { assetId, parseAccountId, parseAssetId, parseDefinitionId } from '../model/ids.js';
import type { Numeric } from '../model/numeric.js';
import { assert } from '../util/assert.js';
import { checkedAdd, toScale } from './amounts.js';
import { authorize, authorizeDebit } from './authorize.js';
import { type ExecContext, type Fail, fail, type Handler } from './exec-context.js';
import { requireNotPool } from './exec-pool-lock.js';
import { moveValue } from './exec-value.js';

interface Resolved {
  readonly assetId: string;
  readonly account: string;
  readonly definitionId: string;
  readonly definition: AssetDefinition;
  readonly domainOwner: string | undefined;
}

/** Looks up the definition then the account of an asset id: asset_definition_not_found, account_not_found. */
function resolve(x: ExecContext, id: string): Resolved | Fail {
  const parts = parseAssetId(id);
  if (parts === undefined || assetId(parts.definition, parts.account) !== id) {
    return fail('asset_not_found', `asset id ${id} is not canonical`);
  }
  const definition = x.t.assetDefinition.get(parts.definition);
  if (definition === undefined)
    return fail('asset_definition_not_found', `no asset definition ${parts.definition}`);
  if (!x.t.account.has(parts.account)) return fail('account_not_found', `no account ${parts.account}`);
  const domain = parseDefinitionId(parts.definition)?.domain;
  const domainOwner = domain === undefined ? undefined : x.t.domain.get(domain)?.ownedBy;
  return { assetId: id, account: parts.account, definitionId: parts.definition, definition, domainOwner };
}

/** The definition part of a movement of `r` (exec-value.ts, the one path value moves through). */
function movement(r: Resolved): { definition: string; scale: number } {
  return { definition: r.definitionId, scale: r.definition.scale };
}

function isFail(v: Resolved | Fail): v is Fail {
  return 'code' in v;
}

/** The amount as a mantissa at the definition scale: invalid_amount when zero or not representable. */
function scaled(amount: Numeric, definition: AssetDefinition): bigint | Fail {
  const s = toScale(amount, definition.scale);
  if (s.ok) return s.mantissa;
  if (s.why === 'overflow')
    return fail('overflow', 'amount exceeds the 128-bit mantissa at the definition scale');
  return fail(
    'invalid_amount',
    s.why === 'zero'
      ? 'amount must be greater than zero'
      : `amount has more than ${definition.scale} fraction digits`,
  );
}

function setTotal(x: ExecContext, r: Resolved, total: bigint, mintable = r.definition.mintable): void {
  const d = x.t.assetDefinition.get(r.definitionId)!;
  x.t.assetDefinition.set(r.definitionId, {
    ...d,
    mintable,
    totalQuantity: { mantissa: total, scale: d.scale },
  });
  x.emit({
    kind: 'AssetDefinitionTotalChanged',
    id: r.definitionId,
    total: { mantissa: total, scale: d.scale },
  });
}

export const mintAsset: Handler<'MintAsset'> = (x, ins) => {
  const r = resolve(x, ins.asset);
  if (isFail(r)) return r;
  const denied = authorize(
    x,
    [r.definition.ownedBy, r.domainOwner],
    'CanMintAssetWithDefinition',
    r.definitionId,
  );
  if (denied) return denied;
  const amount = scaled(ins.amount, r.definition);
  if (typeof amount !== 'bigint') return amount;
  if (r.definition.mintable.kind === 'Not')
    return fail('not_mintable', `${r.definitionId} may not be minted`);
  const total = checkedAdd(r.definition.totalQuantity.mantissa, amount);
  if (total === undefined) return fail('overflow', `minting would pass 2^128-1 for ${r.definitionId}`);
  const moved = moveValue(x, { ...movement(r), to: r.account, amount });
  if (moved) return moved;
  // Mintable Once: the first successful mint closes minting for good.
  setTotal(x, r, total, r.definition.mintable.kind === 'Once' ? { kind: 'Not' } : r.definition.mintable);
  return undefined;
};

export const burnAsset: Handler<'BurnAsset'> = (x, ins) => {
  const r = resolve(x, ins.asset);
  if (isFail(r)) return r;
  const locked = requireNotPool(x, r.account);
  if (locked) return locked;
  const owners = [r.account, r.definition.ownedBy, r.domainOwner];
  const denied = authorizeDebit(x, r.account, owners, 'CanBurnAssetWithDefinition', r.definitionId);
  if (denied) return denied;
  const amount = scaled(ins.amount, r.definition);
  if (typeof amount !== 'bigint') return amount;
  const moved = moveValue(x, { ...movement(r), from: r.account, amount });
  if (moved) return moved;
  assert(r.definition.totalQuantity.mantissa >= amount, `total of ${r.definitionId} below a balance`);
  setTotal(x, r, r.definition.totalQuantity.mantissa - amount);
  return undefined;
};

export const transferAsset: Handler<'TransferAsset'> = (x, ins) =>
  transferValue(x, ins.source, ins.destination, ins.amount, true);

/**
 * The one function through which a transfer moves value (TransferAsset, a module's charges). With
 * `authorizeSource` false the caller has authorized the debit itself (a standing grant the payer gave,
 * such as a recurring charge it agreed to); every other check runs, in TransferAsset's order.
 */
export function transferValue(
  x: ExecContext,
  source: string,
  destination: string,
  value: Numeric,
  authorizeSource: boolean,
): Fail | undefined {
  const ins = { source, destination, amount: value };
  const r = resolve(x, ins.source);
  if (isFail(r)) return r;
  const locked = requireNotPool(x, r.account);
  if (locked) return locked;
  const dest = parseAccountId(ins.destination);
  if (dest === undefined || !x.t.account.has(ins.destination))
    return fail('account_not_found', `no account ${ins.destination}`);
  const denied = authorizeSource
    ? authorizeDebit(
        x,
        r.account,
        [r.account, r.domainOwner],
        'CanTransferAssetWithDefinition',
        r.definitionId,
      )
    : undefined;
  if (denied) return denied;
  const amount = scaled(ins.amount, r.definition);
  if (typeof amount !== 'bigint') return amount;
  if (ins.destination === r.account)
    return fail('same_account', 'source and destination are the same account');
  // Balances of one definition sum to its total, which fits the mantissa, so the credit cannot overflow.
  return moveValue(x, { ...movement(r), from: r.account, to: ins.destination, amount });
}
