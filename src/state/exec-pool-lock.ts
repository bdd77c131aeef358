// The shielded pool account is locked (the pool: exec-shielded.ts): its balance backs the
// unspent notes, so only note spends move it out. Ordinary debits of the pool account
// (TransferAsset, BurnAsset), by anyone including the Admin, are rejected with
// shielded_pool_locked, and so is a SetParameter that renames the pool while it holds value.

import type { Json } from '../codec/codec.js';
import { assetId } from '../model/ids.js';
import { type ExecContext, type Fail, fail } from './exec-context.js';
import { NATIVE_ASSET_PARAMETER } from './exec-native-asset.js';

export const POOL_ACCOUNT_PARAMETER = 'shielded_pool_account';

function poolAccount(x: ExecContext): string | undefined {
  const account: Json | undefined = x.view.parameters().custom.get(POOL_ACCOUNT_PARAMETER);
  return typeof account === 'string' ? account : undefined;
}

/** shielded_pool_locked when `account` (the debited one) is the pool account. */
export function requireNotPool(x: ExecContext, account: string): Fail | undefined {
  return account === poolAccount(x)
    ? fail('shielded_pool_locked', `${account} is the shielded pool: only note spends move its funds`)
    : undefined;
}

/**
 * shielded_pool_locked for a change of `shielded_pool_account` (to another value) while the current pool account holds
 * native asset (the value of unspent notes, which the new account would not hold).
 */
export function requirePoolParameterFree(x: ExecContext, id: string, payload: Json): Fail | undefined {
  if (id !== POOL_ACCOUNT_PARAMETER) return undefined;
  const pool = poolAccount(x);
  if (payload === pool) return undefined;
  const native: Json | undefined = x.view.parameters().custom.get(NATIVE_ASSET_PARAMETER);
  if (pool === undefined || typeof native !== 'string') return undefined;
  const held = x.t.asset.get(assetId(native, pool))?.value.mantissa ?? 0n;
  return held > 0n
    ? fail('shielded_pool_locked', `the pool ${pool} backs unspent notes: it cannot be replaced`)
    : undefined;
}
