// The one path value moves through (docs/controls.md §Enforcement): TransferAsset, MintAsset, BurnAsset,
// usage billing and the shielded pool (exec-native-asset.ts `charge`) and, through them, every
// instruction or route that moves an asset (ISO 20022 bridge transfers are TransferAsset). It checks the
// transfer controls, then funds, then applies the balances and the sender's usage. Totals of a
// definition are the caller's (mint and burn): a transfer or charge leaves them unchanged.

import { assetId } from '../model/ids.js';
import { checkedAdd } from './amounts.js';
import { type ExecContext, type Fail, fail } from './exec-context.js';
import { checkControls, isFailure, type Movement, writeUsage } from './transfer-controls.js';

export type { Movement };

function balance(x: ExecContext, id: string): bigint {
  return x.t.asset.get(id)?.value.mantissa ?? 0n;
}

function setBalance(x: ExecContext, id: string, mantissa: bigint, scale: number): void {
  if (mantissa === 0n) x.t.asset.delete(id);
  else x.t.asset.set(id, { id, value: { mantissa, scale } });
}

/**
 * Debits `m.from` and credits `m.to` by `m.amount` (a mantissa > 0 at the definition scale): the
 * control codes (transfer_frozen, account_blacklisted, on_deny_list, not_on_allow_list,
 * transfer_cap_exceeded), then insufficient_funds, then overflow. Emits AssetRemoved then AssetAdded.
 * The accounts must exist and differ (callers check).
 */
export function moveValue(x: ExecContext, m: Movement): Fail | undefined {
  const usage = checkControls(x, m);
  if (isFailure(usage)) return usage;
  const fromId = m.from === undefined ? undefined : assetId(m.definition, m.from);
  const toId = m.to === undefined ? undefined : assetId(m.definition, m.to);
  const held = fromId === undefined ? 0n : balance(x, fromId);
  if (fromId !== undefined && held < m.amount)
    return fail('insufficient_funds', `${fromId} holds less than the amount`);
  const next = toId === undefined ? 0n : checkedAdd(balance(x, toId), m.amount);
  if (next === undefined) return fail('overflow', `balance of ${toId} would pass 2^128-1`);
  const moved = { mantissa: m.amount, scale: m.scale };
  if (fromId !== undefined) setBalance(x, fromId, held - m.amount, m.scale);
  if (toId !== undefined) setBalance(x, toId, next, m.scale);
  if (usage !== undefined) writeUsage(x, usage);
  if (fromId !== undefined) x.emit({ kind: 'AssetRemoved', id: fromId, amount: moved });
  if (toId !== undefined) x.emit({ kind: 'AssetAdded', id: toId, amount: moved });
  return undefined;
}
