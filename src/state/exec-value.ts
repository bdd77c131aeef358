// The one path value moves through: TransferAsset, MintAsset, BurnAsset, usage billing and the shielded
// pool (exec-native-asset.ts `charge`) and, through them, every instruction or route that moves an asset
// (a module's node-local service transfers with TransferAsset too). It runs the installed modules' transfer checks
// (module-host.ts `TransferCheck`), then checks funds, then applies the balances and the checks'
// follow-ups. Totals of a definition are the caller's (mint and burn): a transfer or charge leaves them
// unchanged.

import { assetId } from '../model/ids.js';
import { checkedAdd } from './amounts.js';
import { type ExecContext, type Fail, fail } from './exec-context.js';
import { installedTransferChecks, type Movement, type TransferFollowUp } from './module-host.js';

export type { Movement };

function balance(x: ExecContext, id: string): bigint {
  return x.t.asset.get(id)?.value.mantissa ?? 0n;
}

function setBalance(x: ExecContext, id: string, mantissa: bigint, scale: number): void {
  if (mantissa === 0n) x.t.asset.delete(id);
  else x.t.asset.set(id, { id, value: { mantissa, scale } });
}

/**
 * Debits `m.from` and credits `m.to` by `m.amount` (a mantissa > 0 at the definition scale): the codes
 * of the transfer checks, then insufficient_funds, then overflow. Emits AssetRemoved then AssetAdded.
 * The accounts must exist and differ (callers check).
 */
export function moveValue(x: ExecContext, m: Movement): Fail | undefined {
  let followUps: TransferFollowUp[] | undefined;
  for (const check of installedTransferChecks()) {
    const v = check(x, m);
    if (v === undefined) continue;
    if (typeof v !== 'function') return v;
    if (followUps === undefined) followUps = [v];
    else followUps.push(v);
  }
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
  if (followUps !== undefined) for (const f of followUps) f(x);
  if (fromId !== undefined) x.emit({ kind: 'AssetRemoved', id: fromId, amount: moved });
  if (toId !== undefined) x.emit({ kind: 'AssetAdded', id: toId, amount: moved });
  return undefined;
}
